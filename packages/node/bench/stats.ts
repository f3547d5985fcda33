import { performance } from 'node:perf_hooks'

/*
 * Timing and statistics for the benchmarks. The machine is shared and noisy, so every figure is a
 * ratio against a baseline measured in the same run, in rounds that alternate baseline and subject:
 * a burst of load from elsewhere hits both sides of a round, and the median of the per-round ratios
 * ignores the rounds it spoiled.
 */

/** Operations done in a measured span of wall-clock milliseconds. */
export interface Sample {
  ops: number
  ms: number
  /** CPU time of the whole process (every thread, LevelDB's included) during the span, when measured. */
  cpuMs?: number
  /** CPU time of the main (JavaScript) thread alone during the span, when measured. */
  mainThreadCpuMs?: number
}

export function rateOf (sample: Sample): number {
  return sample.ops / (sample.ms / 1000)
}

export { median, percentile } from 'isnad-sim'

/** How many calls run between two clock reads in a time-boxed loop. */
const CLOCK_STRIDE = 32

/**
 * Calls `op(i)` with i = 0, 1, 2, … until at least `budgetMs` have passed, reading the clock every
 * CLOCK_STRIDE calls so the clock costs nothing measurable.
 */
export function timeBoxed (op: (i: number) => void, budgetMs: number): Sample {
  let ops = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < budgetMs) {
    for (let k = 0; k < CLOCK_STRIDE; k++) op(ops++)
    elapsed = performance.now() - start
  }
  return { ops, ms: elapsed }
}

/** Times one asynchronous run that reports how many operations it did. */
export async function timeRun (run: () => Promise<number>): Promise<Sample> {
  const start = performance.now()
  const ops = await run()
  return { ops, ms: performance.now() - start }
}

/** Per-round rates of a baseline and of each subject, and each subject's per-round ratio. */
export interface RoundResult {
  baseline: number[]
  subjects: Map<string, SubjectRounds>
}

export interface SubjectRounds {
  rates: number[]
  ratios: number[]
  /** Process CPU microseconds per operation, for subjects whose samples measure it. */
  cpuMicrosPerOp: number[]
  /** Main-thread CPU microseconds per operation, for subjects whose samples measure it. */
  mainThreadMicrosPerOp: number[]
}

export type Measure = () => Sample | Promise<Sample>

/**
 * `rounds` rounds after `warmups` discarded ones. In each round the baseline runs before every
 * subject (so each ratio compares neighbours in time); the subjects' order rotates between rounds.
 */
export async function interleave (baseline: Measure, subjects: ReadonlyMap<string, Measure>, rounds: number, warmups = 1): Promise<RoundResult> {
  const names = [...subjects.keys()]
  const result: RoundResult = { baseline: [], subjects: new Map(names.map((n) => [n, { rates: [], ratios: [], cpuMicrosPerOp: [], mainThreadMicrosPerOp: [] }])) }
  for (let round = 0; round < warmups + rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length] as string)
    for (const name of order) {
      const base = rateOf(await baseline())
      const sample = await (subjects.get(name) as Measure)()
      if (round < warmups) continue
      const rate = rateOf(sample)
      result.baseline.push(base)
      const slot = result.subjects.get(name) as SubjectRounds
      slot.rates.push(rate)
      slot.ratios.push(rate / base)
      if (sample.cpuMs !== undefined) slot.cpuMicrosPerOp.push(1000 * sample.cpuMs / sample.ops)
      if (sample.mainThreadCpuMs !== undefined) slot.mainThreadMicrosPerOp.push(1000 * sample.mainThreadCpuMs / sample.ops)
    }
  }
  return result
}

/** A small deterministic PRNG (mulberry32), so every run builds the same data set. */
export function createRandom (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function pick<T> (random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T
}

/** Fisher–Yates, in place. */
export function shuffle<T> (random: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = items[i] as T
    items[i] = items[j] as T
    items[j] = t
  }
  return items
}
