import { EVIDENCE_PRIOR } from './constants.js'
import type { TrustGraph } from './vote-graph.js'

/**
 * How much reputable evidence stands behind each agent: the standing of the agents that agreed with
 * its verdicts (A of agreementOf) plus, per edge u → v, u's standing times what u handed v (an
 * endorsement, an author's acknowledgement of a confirm). In units of "one fully reputable agent
 * once".
 */
export function evidenceOf (graph: TrustGraph, standing: Float64Array, agreed: Float64Array): Float64Array {
  const evidence = new Float64Array(graph.agents.length)
  for (let i = 0; i < evidence.length; i++) evidence[i] = Math.max(0, agreed[i] as number)
  for (let u = 0; u < graph.agents.length; u++) {
    const s = (standing[u] as number) * (graph.outWeight[u] as number)
    if (s === 0) continue
    for (let e = graph.offsets[u] as number; e < (graph.offsets[u + 1] as number); e++) {
      const v = graph.targets[e] as number
      evidence[v] = (evidence[v] as number) + s * (graph.weights[e] as number)
    }
  }
  return evidence
}

/**
 * E / (E + k) with k = EVIDENCE_PRIOR (docs/trust.md §3, the small-node weakness): the beta reputation's
 * shrinkage toward "unknown" (Jøsang and Ismail, "The Beta Reputation System", 2002). The walk's
 * standing is relative (min(1, π/π_ref)), so on a node that knows one stranger that stranger is the
 * best-ranked agent and would stand at 1 after a single confirm of one of the node's own memories.
 * Scaled by how much reputable evidence backs it, one such confirm gives 1/(1 + k); an honest
 * witness with many corroborated verdicts keeps nearly all of its standing. Only ever lowers a
 * standing, so the walk's Sybil bound holds for the final reputation too.
 */
export function evidenceFactor (evidence: number): number {
  return evidence <= 0 ? 0 : evidence / (evidence + EVIDENCE_PRIOR)
}
