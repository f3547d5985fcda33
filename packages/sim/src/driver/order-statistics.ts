import type { RankedSample } from './metrics.js'

/*
 * A few order statistics of a large unsorted sample without sorting all of it: the model engine's
 * gossip latencies are millions of values at 1,000 agents and more, of which the percentiles and the
 * CDF read about a hundred ranks (metrics.ts summaryRanks). One pass finds the range, one counts the
 * values of each of BUCKETS equal slices of it, one gathers the values of the slices that hold a
 * wanted rank; only those are sorted. Exact: a slice's index never decreases as the value grows, so
 * each wanted rank reads the value a full sort puts there. Pure.
 */

/** Slices of the sample's range. @default 65,536 */
export const ORDER_STATISTIC_BUCKETS = 1 << 16

/**
 * The values at 0-based `ranks` of `values` sorted ascending (as Float64Array's sort orders them),
 * as a RankedSample that answers those ranks only (undefined for any other). `values` is not changed.
 */
export function selectRanks (values: Float64Array, ranks: readonly number[]): RankedSample {
  const n = values.length
  const wanted = [...new Set(ranks)].filter((rank) => Number.isInteger(rank) && rank >= 0 && rank < n).sort((a, b) => a - b)
  const found = new Map<number, number>()
  const sample: RankedSample = { length: n, at: (rank) => found.get(rank) }
  if (wanted.length === 0) return sample
  let min = Infinity
  let max = -Infinity
  let nan = false
  for (let i = 0; i < n; i++) {
    const v = values[i] as number
    if (v < min) min = v
    if (v > max) max = v
    if (v !== v) nan = true
  }
  const range = max - min
  const scale = ORDER_STATISTIC_BUCKETS / range
  // NaN, infinities, a range past the largest double, one repeated value: no slices to cut, the whole sample is sorted.
  if (nan || !Number.isFinite(range) || !Number.isFinite(scale) || scale === 0) {
    const sorted = Float64Array.from(values).sort()
    for (const rank of wanted) found.set(rank, sorted[rank] as number)
    return sample
  }
  const last = ORDER_STATISTIC_BUCKETS - 1
  const sliceOf = (v: number): number => Math.min(last, Math.floor((v - min) * scale))
  const counts = new Uint32Array(ORDER_STATISTIC_BUCKETS)
  for (let i = 0; i < n; i++) counts[sliceOf(values[i] as number)]!++
  // The slice of each wanted rank (ranks ascending, so one walk), and where its values will lie.
  const firstRank = new Float64Array(ORDER_STATISTIC_BUCKETS)
  const gatherAt = new Int32Array(ORDER_STATISTIC_BUCKETS).fill(-1)
  const sliceOfRank: number[] = []
  let gathered = 0
  let slice = 0
  let below = 0
  for (const rank of wanted) {
    while (below + (counts[slice] as number) <= rank) below += counts[slice++] as number
    firstRank[slice] = below
    if (gatherAt[slice] === -1) { gatherAt[slice] = gathered; gathered += counts[slice] as number }
    sliceOfRank.push(slice)
  }
  const gather = new Float64Array(gathered)
  const fill = Int32Array.from(gatherAt)
  for (let i = 0; i < n; i++) {
    const v = values[i] as number
    const s = sliceOf(v)
    if (fill[s] !== -1) gather[fill[s]!++] = v
  }
  const sortedSlices = new Set<number>()
  wanted.forEach((rank, k) => {
    const s = sliceOfRank[k] as number
    const start = gatherAt[s] as number
    if (!sortedSlices.has(s)) { gather.subarray(start, start + (counts[s] as number)).sort(); sortedSlices.add(s) }
    found.set(rank, gather[start + rank - (firstRank[s] as number)] as number)
  })
  return sample
}

