import { roundTrustScore, type InsufficientTrust, type TrustContribution } from '../schema/index.js'
import { checkedReputation } from './evidence.js'
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
    let countedConfirms = 0
    let weighty = evidence.authorReputation > 0
    for (const a of evidence.attestations) {
      const reputation = checkedReputation(evidence.reputation, a.record.witness)
      // A confirm (or partial) by a witness the author vouched for in turn is not independent.
      const mutual = a.record.attestation !== 'dispute' && evidence.endorses(evidence.author, a.record.witness)
      const rep = mutual ? 0 : reputation
      const weight = weightOf(a, rep)
      if (mutual) {
        attestations.set(a.id, { points: 0, note: `not counted: the author has confirmed memories of ${a.record.witness} too, and mutual vouching is not independent evidence (witness reputation ${reputation})` })
        continue
      }
      if (rep > 0) weighty = true
      // A confirm is a witness for the evidence band only when its witness carries weight.
      if (a.record.attestation === 'confirm' && rep > 0) countedConfirms++
      if (a.record.attestation === 'dispute') {
        disputeWeight += rep
        attestations.set(a.id, { points: roundTrustScore(-W.perDispute * rep), note: `dispute weighted by reputation ${rep}` })
      } else {
        confirmWeight += weight
        attestations.set(a.id, { note: noteOf(a, rep, weight) })
      }
    }
    const contributions: TrustContribution[] = [
      signatureStep(evidence.memory.signatureValid, evidence.authorKeyRefusal),
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
    // A memory its reputable witnesses dispute at least as much as they confirm is contested, not
    // attested: "at least one witness" means the weight of the witnesses is on its side.
    const contested = countedConfirms > 0 && disputeWeight >= confirmWeight
    const result: PolicyScore = { contributions, attestations, countedConfirms: contested ? 0 : countedConfirms }
    if (contested) {
      result.evidenceNote = `contested: the disputes' reputation (${round(disputeWeight)}) is at least the confirms' (${round(confirmWeight)}), so no confirm counts as a witness`
    }
    const insufficient = insufficientOf(evidence, weighty)
    if (insufficient !== undefined) result.insufficient = insufficient
    return result
  }
})

/**
 * Too little to judge (issue 18 item 3): without roots every agent has the default reputation, which
 * says nothing about anyone; with roots, when neither the author nor any witness is on a trust path
 * from them, the evidence is only what strangers say of themselves.
 */
function insufficientOf (evidence: CountedEvidence, weighty: boolean): InsufficientTrust | undefined {
  if (!evidence.rooted) {
    return { code: 'NO_ROOTS', reason: 'this node has no trust roots (no agent of its own, none added with `isnad trust root add`): every agent has the default reputation, which says nothing about anyone' }
  }
  if (!weighty) {
    return { code: 'NO_PATH', reason: 'no trust path from this node\'s roots reaches the author or any witness of this memory' }
  }
  return undefined
}

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
