import { REFERENCE_MASS_SHARE } from './constants.js'
import type { ReputationTable } from './reputation-table.js'

/** Reputation in [0, 1] from a rank and the reference rank π_ref (see standingOf). */
export function reputationOfRank (rank: number, reference: number): number {
  return Math.min(1, rank / reference)
}

/**
 * Standing in [0, 1] from the rank: `min(1, π / π_ref)`, where π_ref is the mass-weighted median of
 * the non-root ranks — the rank at which the agents ranked highest hold half of all non-root mass.
 * So about half of the walk's mass sits with fully trusted agents whatever the network's size (a
 * scale |R|/(1 − d) fixed in advance leaves 10,000 honest agents at 0.003 each with 5 roots), and
 * agents the walk reaches less weigh in proportion. The map is linear below 1 with slope 1/π_ref,
 * which is what carries the region bound (bound.ts) from ranks to reputations. Mass outside the
 * honest region (Sybils reached through attack edges) is at most the bound's share, so it can move
 * the median by at most that share of the mass.
 */
export function standingOf (rank: Float64Array, rootIndexes: readonly number[], reference = referenceRankOf(rank, rootIndexes)): Float64Array {
  const standing = new Float64Array(rank.length)
  for (let i = 0; i < standing.length; i++) standing[i] = reputationOfRank(rank[i] as number, reference)
  for (const r of rootIndexes) standing[r] = 1
  return standing
}

/** π_ref of standingOf: Infinity when no agent but the roots has any rank (nobody has standing). */
export function referenceRankOf (rank: Float64Array, rootIndexes: readonly number[]): number {
  const isRoot = new Uint8Array(rank.length)
  for (const r of rootIndexes) isRoot[r] = 1
  let count = 0
  for (let i = 0; i < rank.length; i++) if (isRoot[i] === 0 && (rank[i] as number) > 0) count++
  if (count === 0) return Infinity
  const ranks = new Float64Array(count)
  let total = 0
  count = 0
  for (let i = 0; i < rank.length; i++) {
    const r = rank[i] as number
    if (isRoot[i] === 0 && r > 0) { ranks[count++] = r; total += r }
  }
  ranks.sort()
  let held = 0
  for (let k = ranks.length - 1; k >= 0; k--) {
    held += ranks[k] as number
    if (held >= total * REFERENCE_MASS_SHARE) return ranks[k] as number
  }
  return ranks[0] as number
}

/**
 * What src/trust's TrustInput takes from a table: the reputation lookup, who vouches for whom, and
 * whether the node has roots at all. Every place that scores (the node, its stored scores, the
 * simulator's observers) passes exactly this, so offline recomputation agrees with the node.
 */
export function trustInputsOf (table: ReputationTable): { reputation: (did: string) => number, endorses: (from: string, to: string) => boolean, rooted: boolean } {
  return { reputation: table.lookup, endorses: table.endorses, rooted: table.rooted }
}
