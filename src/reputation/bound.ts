import { IsnadError } from '../errors/index.js'

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
