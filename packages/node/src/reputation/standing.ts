import { REFERENCE_MASS_SHARE } from './constants.js'
import type { ReputationTable } from './reputation-table.js'
import type { TrustGraph } from './vote-graph.js'

/** Reputation in [0, 1] from an agent's rank per unit of exposure and the reference (see standingOf). */
export function reputationOfRank (rank: number, reference: number): number {
  return Math.min(1, rank / reference)
}

/**
 * Each agent's exposure in the graph a node holds: its walk out-weight (endorsements, claims shared,
 * acknowledgements), at least 1. On a walk without restarts an agent's rank is proportional to it,
 * so rank / exposure is the rank an agent gets per record the node holds about it: what the restart
 * at the roots and the debits add or take, not how many of its records reached this node.
 */
export function exposureOf (graph: Pick<TrustGraph, 'outWeight'>): Float64Array {
  const exposure = new Float64Array(graph.outWeight.length)
  for (let i = 0; i < exposure.length; i++) exposure[i] = Math.max(1, graph.outWeight[i] as number)
  return exposure
}

/**
 * Standing in [0, 1] from the rank: `min(1, (π / x) / ρ_ref)` with x the agent's exposure (exposureOf)
 * and ρ_ref the reference (referenceRankOf). The rank is degree-normalised, as SybilRank ranks by
 * degree-normalised landing probability (Cao et al. 2012, "Aiding the detection of fake accounts in
 * large scale social online services"): a sharded node holds only a slice of each agent's records,
 * and an honest witness it saw on a few records would otherwise stand far below one it saw on many,
 * whatever either did. How much is known of an agent is the evidence factor's to weigh
 * (evidence-factor.ts). Exposure is at least 1, so rep ≤ π / ρ_ref and the region bound (bound.ts)
 * carries over with ρ_ref in place of π_ref.
 */
export function standingOf (rank: Float64Array, rootIndexes: readonly number[], exposure: Float64Array, reference = referenceRankOf(rank, rootIndexes, exposure)): Float64Array {
  const standing = new Float64Array(rank.length)
  for (let i = 0; i < standing.length; i++) standing[i] = reputationOfRank((rank[i] as number) / (exposure[i] as number), reference)
  for (const r of rootIndexes) standing[r] = 1
  return standing
}

/**
 * What each agent's verdict weighs in the debit (reputation.ts agreementOf): its rank per unit of
 * exposure over the reference, not capped at 1, so a voter's verdicts weigh in all its rank over
 * ρ_ref however many memories it spreads them over. Roots weigh as much as the heaviest other agent.
 */
export function voteWeightOf (rank: Float64Array, rootIndexes: readonly number[], exposure: Float64Array, reference = referenceRankOf(rank, rootIndexes, exposure)): Float64Array {
  const weight = new Float64Array(rank.length)
  if (!Number.isFinite(reference)) return weight
  let heaviest = 0
  for (let i = 0; i < weight.length; i++) {
    weight[i] = (rank[i] as number) / (exposure[i] as number) / reference
  }
  for (const r of rootIndexes) weight[r] = 0
  for (let i = 0; i < weight.length; i++) heaviest = Math.max(heaviest, weight[i] as number)
  for (const r of rootIndexes) weight[r] = Math.max(1, heaviest)
  return weight
}

/**
 * ρ_ref of standingOf: the rank per unit of exposure above which the agents hold REFERENCE_MASS_SHARE
 * of the non-root mass (agents ordered by rank per exposure, mass counted as rank). Infinity when no
 * agent but the roots has any rank (nobody has standing).
 */
export function referenceRankOf (rank: Float64Array, rootIndexes: readonly number[], exposure: Float64Array): number {
  const isRoot = new Uint8Array(rank.length)
  for (const r of rootIndexes) isRoot[r] = 1
  const order: number[] = []
  let total = 0
  for (let i = 0; i < rank.length; i++) {
    const r = rank[i] as number
    if (isRoot[i] === 0 && r > 0) { order.push(i); total += r }
  }
  if (order.length === 0) return Infinity
  const ratio = (i: number): number => (rank[i] as number) / (exposure[i] as number)
  order.sort((a, b) => ratio(b) - ratio(a) || a - b)
  let held = 0
  for (const i of order) {
    held += rank[i] as number
    if (held >= total * REFERENCE_MASS_SHARE) return ratio(i)
  }
  return ratio(order[order.length - 1] as number)
}

/**
 * What src/trust's TrustInput takes from a table: the reputation lookup, who vouches for whom, and
 * whether the node has roots at all. Every place that scores (the node, its stored scores, the
 * simulator's observers) passes exactly this, so offline recomputation agrees with the node.
 */
export function trustInputsOf (table: ReputationTable): { reputation: (did: string) => number, endorses: (from: string, to: string) => boolean, rooted: boolean } {
  return { reputation: table.lookup, endorses: table.endorses, rooted: table.rooted }
}
