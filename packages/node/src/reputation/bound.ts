import { IsnadError } from '../errors/index.js'
import { AGREEMENT_WEIGHT } from './constants.js'
import type { TrustGraph } from './vote-graph.js'

export interface SybilBoundInput {
  damping: number
  /** |R|, the number of trust roots. */
  rootCount: number
  /**
   * The honest agents whose out-edges the attack changed (each attack edge is an honest witness
   * counted as endorsing a Sybil), with their rank π_u in the graph without the attack. An honest
   * agent with several attack edges appears once.
   */
  attackedRanks: readonly number[]
  /**
   * The most a trust score moves per unit of one agent's reputation under the policy
   * (isnad-reputation: 0.2, see REPUTATION_POLICY_MAX_SLOPE in src/trust).
   */
  scoreSlope: number
}

export interface SybilBound {
  /** Bound on ‖π′ − π‖₁ over all agents, Sybils included. */
  rankL1: number
  /** Bound on Σᵢ |rep′ᵢ − repᵢ|, hence on any one agent's change and on all Sybils' reputation together. */
  reputationL1: number
  /** Bound on the change of any memory's trust score (before the 4-decimal rounding). */
  trustScore: number
}

/**
 * The bound of docs/trust.md §Sybil resistance. Perturbation of personalised PageRank (Ng, Zheng and
 * Jordan 2001, "Link analysis, eigenvectors and stability", Thm 1, with teleport ε = 1 − d):
 * changing the out-edges of a set C of agents moves the rank vector by at most
 * ‖π′ − π‖₁ ≤ (2d / (1 − d)) · Σ_{u∈C} π_u. The Sybils are in C too, but without the attack no edge
 * reaches them and teleport never lands on them, so their π is 0 and only the g attacked honest
 * agents count: the bound is ≤ (2d / (1 − d)) · g · max_u π_u, proportional to g.
 * Reputation is min(1, π·|R|/(1 − d)), Lipschitz with constant |R|/(1 − d); a trust score moves at
 * most `scoreSlope` per unit of any one voter's reputation, and each agent votes once per memory.
 */
export function sybilBound (input: SybilBoundInput): SybilBound {
  const { damping: d, rootCount, attackedRanks, scoreSlope } = input
  if (!(d > 0 && d < 1) || rootCount < 1 || scoreSlope < 0) {
    throw new IsnadError('USAGE', 'sybilBound needs damping in (0, 1), at least one root and a slope ≥ 0')
  }
  const attackedMass = attackedRanks.reduce((sum, r) => sum + r, 0)
  const rankL1 = (2 * d / (1 - d)) * attackedMass
  const reputationL1 = (rootCount / (1 - d)) * rankL1
  return { rankL1, reputationL1, trustScore: scoreSlope * reputationL1 }
}

export interface RegionBoundInput {
  damping: number
  /**
   * The reference rank π_ref of the table (ReputationTable.reference): reputation is min(1, π/π_ref).
   */
  reference: number
  /**
   * The walk's flow into the region from outside: Σ over agents u outside it of π(u)·w(u)/outWeight(u),
   * where w(u) is what u's out-weight gives the region (endorsements of and acknowledgements to its
   * members, plus, per claim u shares with them, AGREEMENT_WEIGHT × the region's share of the claim's
   * other members). `attackFlow` computes it.
   */
  inflow: number
}

/**
 * The Sybil bound of the agreement walk (docs/trust.md §4a). For any set S of agents without
 * a root, at the stationary distribution the walk's mass entering S equals the mass leaving it; every
 * step, S loses at least its teleport share (1 − d)·π(S) (teleport goes to the roots, and so does what
 * a contradicted agent or claim does not pass on), and gains at most d·inflow. So
 *
 *   π(S) ≤ d · inflow / (1 − d),     Σ_{s∈S} rep(s) ≤ d · inflow / ((1 − d) · π_ref)
 *
 * since rep ≤ π / π_ref (the debit only lowers it). Each honest agent u sends S at most its whole
 * walk π(u), and only an attack edge makes it send anything: u voted on a Sybil's memory, a Sybil
 * gave u's verdict on a memory, or a Sybil confirmed u's memory. So with g honest agents touched by
 * attack edges, inflow ≤ g · max π(u): the Sybils' total reputation is at most
 * d·g·max π / ((1 − d)·π_ref) — linear in the honest agents fooled and their standing, whatever the
 * number of Sybils, in units of a fully reputable agent.
 */
export function regionBound ({ damping: d, reference, inflow }: RegionBoundInput): { rank: number, reputation: number } {
  if (!(d > 0 && d < 1) || !(reference > 0) || inflow < 0) {
    throw new IsnadError('USAGE', 'regionBound needs damping in (0, 1), a reference rank > 0 and an inflow ≥ 0')
  }
  const rank = d * inflow / (1 - d)
  return { rank, reputation: rank / reference }
}

/** The inflow regionBound takes: the walk's flow from outside `region` into it under `rank`. */
export function attackFlow (graph: TrustGraph, rank: Float64Array, region: ReadonlySet<number>): number {
  let flow = 0
  const { claims } = graph
  for (let u = 0; u < graph.agents.length; u++) {
    if (region.has(u) || (graph.outWeight[u] as number) === 0) continue
    let share = 0
    for (let e = graph.offsets[u] as number; e < (graph.offsets[u + 1] as number); e++) {
      if (region.has(graph.targets[e] as number)) share += graph.weights[e] as number
    }
    let toRegion = 0
    for (let k = graph.agentClaimOffsets[u] as number; k < (graph.agentClaimOffsets[u + 1] as number); k++) {
      const c = graph.agentClaims[k] as number
      const start = claims.offsets[c] as number
      const end = claims.offsets[c + 1] as number
      let inRegion = 0
      for (let m = start; m < end; m++) if (region.has(claims.members[m] as number)) inRegion++
      toRegion += AGREEMENT_WEIGHT * inRegion / (end - start - 1)
    }
    flow += (rank[u] as number) * (share + toRegion / (graph.outWeight[u] as number))
  }
  return flow
}
