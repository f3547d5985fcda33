/*
 * Order statistics shared by the simulation's metrics and the benchmarks (bench/stats.ts re-exports
 * them). Pure.
 */

export function median (values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] as number : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** Nearest-rank percentile (p in 0–100) of values, sorted or not. */
export function percentile (values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1] as number
}

/**
 * Area under the ROC curve of `positives` against `negatives` (Mann–Whitney U / (n·m)): the chance
 * that a random positive scores above a random negative, ties counting half. NaN when a side is empty.
 */
export function rocAuc (positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return Number.NaN
  const all = [...positives.map((v) => ({ v, p: true })), ...negatives.map((v) => ({ v, p: false }))].sort((a, b) => a.v - b.v)
  // Ranks with ties averaged; U = (sum of positive ranks) − n(n+1)/2.
  let rankSum = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j < all.length && (all[j] as { v: number }).v === (all[i] as { v: number }).v) j++
    const averageRank = (i + 1 + j) / 2
    for (let k = i; k < j; k++) if ((all[k] as { p: boolean }).p) rankSum += averageRank
    i = j
  }
  const n = positives.length
  return (rankSum - n * (n + 1) / 2) / (n * negatives.length)
}
