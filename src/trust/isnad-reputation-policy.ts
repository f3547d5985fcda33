import { roundTrustScore, type TrustContribution } from '../schema/index.js'
import { checkedReputation } from './count-evidence.js'
import { ISNAD_V01_WEIGHTS as W, MANY_CONFIRMS } from './constants.js'
import { anchorStep, signatureStep } from './isnad-v01-policy.js'
import type { AcceptedAttestation, AttestationScoreNote, CountedEvidence, PolicyScore, TrustPolicy } from './types.js'

/** A partial attestation confirms some of a memory's claims: half the weight of a confirm. */
export const PARTIAL_WEIGHT = 0.5

/**
 * The most a score moves per unit of one agent's reputation (the Sybil bound's `scoreSlope`): the
 * author term is 0.2·rep, the confirm term's steepest slope is 0.2, a dispute's is 0.15, and an
 * agent is in one role per memory (the author never witnesses itself; one vote per witness).
 */
export const REPUTATION_POLICY_MAX_SLOPE = Math.max(W.authorReputation, W.firstConfirm, W.perDispute)

/**
 * Policy `isnad-reputation` (DESIGN §2, docs/trust.md): `isnad-v0.1` with every witness's vote
 * weighted by its reputation from the node's trust roots. The confirm steps become continuous in the
 * weighted count C = Σ rep(confirmer) + ½·Σ rep(partial witness): +0.2·min(1, C), then +0.1 more,
 * linearly, as C goes from 1 to 3 (MANY_CONFIRMS), so three fully reputable confirms earn exactly
 * what they earn in isnad-v0.1 and any number of zero-reputation keys earn nothing. Each dispute
 * costs 0.15 × its witness's reputation.
 */
export const isnadReputationPolicy: TrustPolicy = Object.freeze({
  name: 'isnad-reputation',
  description: 'isnad-v0.1 with each witness weighted by its reputation from the node\'s trust roots',
  score (evidence: CountedEvidence): PolicyScore {
    const attestations = new Map<string, AttestationScoreNote>()
    let confirmWeight = 0
    let disputeWeight = 0
    for (const a of evidence.attestations) {
      const rep = checkedReputation(evidence.reputation, a.record.witness)
      const weight = weightOf(a, rep)
      if (a.record.attestation === 'dispute') {
        disputeWeight += rep
        attestations.set(a.id, { points: roundTrustScore(-W.perDispute * rep), note: `dispute weighted by reputation ${rep}` })
      } else {
        confirmWeight += weight
        attestations.set(a.id, { note: noteOf(a, rep, weight) })
      }
    }
    const contributions: TrustContribution[] = [
      signatureStep(evidence.memory.signatureValid),
      confirmStep(confirmWeight),
      anchorStep(evidence.anchors.length),
      {
        factor: 'author_reputation',
        points: roundTrustScore(W.authorReputation * evidence.authorReputation),
        reason: `${W.authorReputation} × author reputation ${evidence.authorReputation}`
      },
      {
        factor: 'disputes',
        points: roundTrustScore(-W.perDispute * disputeWeight),
        reason: `disputes weighted by reputation: Σ rep = ${round(disputeWeight)} × −${W.perDispute}`
      }
    ]
    return { contributions, attestations }
  }
})

function weightOf (a: AcceptedAttestation, rep: number): number {
  return a.record.attestation === 'partial' ? PARTIAL_WEIGHT * rep : rep
}

function noteOf (a: AcceptedAttestation, rep: number, weight: number): string {
  return a.record.attestation === 'partial'
    ? `partial: half a confirm, weight ${PARTIAL_WEIGHT} × reputation ${rep} = ${round(weight)}`
    : `confirm weighted by reputation ${rep}`
}

function confirmStep (c: number): TrustContribution {
  const first = W.firstConfirm * Math.min(1, c)
  const more = W.manyConfirms * Math.min(1, Math.max(0, (c - 1) / (MANY_CONFIRMS - 1)))
  return {
    factor: 'confirms',
    points: roundTrustScore(first + more),
    reason: `reputation-weighted confirms C = ${round(c)}: +${W.firstConfirm} × min(1, C), ` +
      `+${W.manyConfirms} × min(1, (C − 1)/${MANY_CONFIRMS - 1}) for C above 1`
  }
}

function round (value: number): number {
  return roundTrustScore(value)
}
