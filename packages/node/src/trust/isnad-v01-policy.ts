import { roundTrustScore, type TrustContribution } from '../schema/index.js'
import { ISNAD_V01_WEIGHTS as W, MANY_ANCHORS, MANY_CONFIRMS } from './constants.js'
import type { AttestationScoreNote, CountedEvidence, KeyRefusalCode, PolicyScore, TrustPolicy } from './types.js'

const PARTIAL_NOTE = 'a partial attestation counts as neither confirm nor dispute in isnad-v0.1 ' +
  '(the provenance schema\'s algorithm counts only confirms and disputes)'

/** The notes of a score whose attestations are all confirms: none. Shared by every such score, never written. */
const NO_NOTES: ReadonlyMap<string, AttestationScoreNote> = new Map<string, AttestationScoreNote>()

/**
 * Policy `isnad-v0.1`: the provenance schema's `compute_trust_score`, step for step (docs/trust.md §1).
 * Each step is one contribution, given even when it adds nothing so the explanation says why.
 * Every point value is rounded to 4 decimals, then so is their sum (see roundTrustScore); only the
 * reputation term is not already a multiple of 0.05, so this equals rounding the exact sum.
 */
export const isnadV01Policy: TrustPolicy = Object.freeze({
  name: 'isnad-v0.1',
  description: 'the provenance schema v0.1 algorithm: signature, confirms, anchors, author reputation, disputes',
  score (evidence: CountedEvidence): PolicyScore {
    let confirms = 0
    let disputes = 0
    for (const { record } of evidence.attestations) {
      if (record.attestation === 'confirm') confirms++
      else if (record.attestation === 'dispute') disputes++
    }
    const contributions: TrustContribution[] = [
      signatureStep(evidence.memory.signatureValid, evidence.authorKeyRefusal),
      confirmStep(confirms),
      anchorStep(evidence.anchors.length),
      reputationStep(evidence.authorReputation),
      disputeStep(disputes)
    ]
    // A confirm has no points of its own: confirms score as a group (≥1, ≥3), see `confirms`.
    // Every accepted confirm is a witness for the evidence band: the schema's algorithm counts heads.
    if (disputes === 0 && confirms === evidence.attestations.length) return { contributions, attestations: NO_NOTES, countedConfirms: confirms }
    const attestations = new Map<string, AttestationScoreNote>()
    for (const { id, record } of evidence.attestations) {
      if (record.attestation === 'dispute') attestations.set(id, { points: roundTrustScore(-W.perDispute) })
      if (record.attestation === 'partial') attestations.set(id, { points: 0, note: PARTIAL_NOTE })
    }
    return { contributions, attestations, countedConfirms: confirms }
  }
})

/** Shared with isnad-reputation: the signature and anchor steps are the same in both policies. */
export function signatureStep (valid: boolean, keyRefusal?: KeyRefusalCode): TrustContribution {
  if (keyRefusal !== undefined) {
    return {
      factor: 'author_signature',
      points: 0,
      reason: `the author's key could not sign at the memory's created_at (${keyRefusal}: its key log ${keyRefusalText(keyRefusal)}): the signature proves nothing and the +${W.authorSignature} is not given`
    }
  }
  return valid
    ? { factor: 'author_signature', points: W.authorSignature, reason: 'the author\'s signature on the memory verifies' }
    : { factor: 'author_signature', points: 0, reason: `the author's signature on the memory does not verify: the +${W.authorSignature} is not given` }
}

function keyRefusalText (code: KeyRefusalCode): string {
  switch (code) {
    case 'KEY_REVOKED': return 'revokes it from before that instant, e.g. declared compromised since then'
    case 'KEY_ROTATED': return 'had rotated it out by then'
    case 'KEY_INACTIVE': return 'does not name it as active then'
  }
}

function confirmStep (confirms: number): TrustContribution {
  return countStep('confirms', 'confirm', confirms, W.firstConfirm, W.manyConfirms, MANY_CONFIRMS)
}

export function anchorStep (anchors: number): TrustContribution {
  return countStep('anchors', 'anchor', anchors, W.firstAnchor, W.manyAnchors, MANY_ANCHORS)
}

/** A step of two bonuses: `first` for at least one accepted piece of evidence, `many` more from `manyAt` of them. */
function countStep (factor: 'confirms' | 'anchors', noun: string, count: number, first: number, many: number, manyAt: number): TrustContribution {
  const points = roundTrustScore((count >= 1 ? first : 0) + (count >= manyAt ? many : 0))
  const reason = count === 0
    ? `no accepted ${noun} (+${first} for ≥1)`
    : count < manyAt
      ? `${count} accepted ${noun}${count === 1 ? '' : 's'}: +${first} for ≥1 (+${many} more at ≥${manyAt})`
      : `${count} accepted ${noun}s: +${first} for ≥1, +${many} for ≥${manyAt}`
  return { factor, points, reason }
}

function reputationStep (reputation: number): TrustContribution {
  return {
    factor: 'author_reputation',
    points: roundTrustScore(W.authorReputation * reputation),
    reason: `${W.authorReputation} × author reputation ${roundTrustScore(reputation)}`
  }
}

function disputeStep (disputes: number): TrustContribution {
  return {
    factor: 'disputes',
    points: roundTrustScore(-W.perDispute * disputes),
    reason: disputeReason(disputes)
  }
}

function disputeReason (disputes: number): string {
  return disputes === 0
    ? `no accepted dispute (−${W.perDispute} each)`
    : `${disputes} accepted dispute${disputes === 1 ? '' : 's'} × −${W.perDispute}`
}
