import { roundTrustScore, type CountedAttestation, type TrustFactors, type TrustLevelBasis, type TrustResult } from '../schema/index.js'
import { DAY_MS, SCHEMA_TRUST_POLICY } from './constants.js'
import { countEvidence } from './count-evidence.js'
import { evidenceLevelOf, evidenceReason, lowerLevel, topOfLevel, trustLevelOf } from './level.js'
import { instantOf } from './evidence-order.js'
import { getTrustPolicy } from './policies.js'
import type { ComputeTrustOptions, CountedEvidence, PolicyScore, TrustInput } from './types.js'

/**
 * The trust of one memory with its explanation (docs/trust.md §0, §6). Pure: the clock (`input.now`) and the
 * reputation lookup are inputs, signatures and anchors arrive already checked, and the result does
 * not depend on the order of `attestations` or `anchors`.
 */
export function computeTrust (input: TrustInput, options: ComputeTrustOptions = {}): TrustResult {
  const policy = typeof options.policy === 'object' ? options.policy : getTrustPolicy(options.policy ?? SCHEMA_TRUST_POLICY)
  const evidence = countEvidence(input)
  const policyScore = policy.score(evidence)
  // A memory its author's key could not sign (docs/trust.md §1a) is nobody's word: no witness lifts it.
  const scored: PolicyScore = evidence.authorKeyRefusal === undefined
    ? policyScore
    : { ...policyScore, countedConfirms: 0, evidenceNote: `the author's key could not sign at created_at (${evidence.authorKeyRefusal}): nothing attests a forged authorship` }
  let sum = 0
  for (const { points } of scored.contributions) sum += points
  const unclamped = roundTrustScore(sum)
  // The schema's `max(0.0, min(1.0, score))`: the points.
  const points = Math.min(1, Math.max(0, unclamped))
  const level = scored.insufficient === undefined ? lowerLevel(trustLevelOf(points), evidenceLevelOf({ confirms: scored.countedConfirms, anchors: evidence.anchors.length })) : 'Unverified'
  // One scale (docs/trust.md §1): the score is the points held within the level's band, so the score
  // alone says the level, and ordering or filtering by score never puts a lower level above a higher.
  const score = Math.min(points, topOfLevel(level))
  const result: TrustResult = {
    score,
    points,
    level,
    policy: policy.name,
    computed_at: new Date(input.now).toISOString(),
    factors: factorsOf(evidence),
    contributions: scored.contributions,
    counted: {
      attestations: countedAttestations(evidence, scored),
      anchors: evidence.anchors.map(({ id, record }) => ({ id, type: record.type, reference: record.reference }))
    },
    refused: {
      attestations: [...evidence.refusedAttestations],
      anchors: [...evidence.refusedAnchors]
    }
  }
  if (points !== unclamped) {
    result.clamped = true
    result.unclamped_score = unclamped
  }
  result.level_basis = levelBasisOf(points, score, scored, evidence.anchors.length)
  if (scored.insufficient !== undefined) result.insufficient = scored.insufficient
  if (scored.witnessSelection !== undefined) result.witness_selection = scored.witnessSelection
  return result
}

/**
 * The level is the lower of the points' band and the evidence band (docs/trust.md §1), so a memory no
 * witness confirmed is never Attested however its author's reputation lifts its points; the basis
 * says which rule set it and, when the score is held below the points, at what. A policy with too
 * little to judge (no roots, no path) says Unverified.
 */
function levelBasisOf (points: number, score: number, scored: PolicyScore, anchors: number): TrustLevelBasis {
  const held = { confirms: scored.countedConfirms, anchors }
  const pointsLevel = trustLevelOf(points)
  const evidenceLevel = evidenceLevelOf(held)
  const because = (level: typeof evidenceLevel): string => evidenceReason(level, held) + (scored.evidenceNote === undefined ? '' : ` (${scored.evidenceNote})`)
  const heldAt = score < points ? `; the score is held at ${score}, the top of Unverified` : ''
  if (scored.insufficient !== undefined) {
    return { score_level: pointsLevel, evidence_level: evidenceLevel, set_by: 'insufficient', reason: `too little to judge: ${scored.insufficient.reason}${heldAt}` }
  }
  const lower = lowerLevel(pointsLevel, evidenceLevel)
  const pointsReason = `points ${points} are in the ${pointsLevel} band`
  if (pointsLevel === evidenceLevel) {
    return { score_level: pointsLevel, evidence_level: evidenceLevel, set_by: 'both', reason: `${pointsReason}, and the evidence allows ${evidenceLevel}: ${because(evidenceLevel)}` }
  }
  return lower === evidenceLevel
    ? { score_level: pointsLevel, evidence_level: evidenceLevel, set_by: 'evidence', reason: `${pointsReason}, but the evidence allows only ${evidenceLevel}: ${because(evidenceLevel)}; the score is held at ${score}, the top of ${evidenceLevel}` }
    : { score_level: pointsLevel, evidence_level: evidenceLevel, set_by: 'score', reason: `${pointsReason}; the evidence would allow ${evidenceLevel} (${because(evidenceLevel)})` }
}

function factorsOf (evidence: CountedEvidence): TrustFactors {
  let disputes = 0
  let confirms = 0
  let partials = 0
  for (const { record } of evidence.attestations) {
    if (record.attestation === 'dispute') disputes++
    else if (record.attestation === 'confirm') confirms++
    else if (record.attestation === 'partial') partials++
  }
  const age = evidence.now - instantOf(evidence.memory.record.created_at, 'memory', evidence.memory.id)
  return {
    author_reputation: evidence.authorReputation,
    witness_count: evidence.attestations.length,
    anchor_count: evidence.anchors.length,
    // Whole days; a memory dated slightly ahead (within the allowed clock skew) is 0 days old.
    age_days: Math.max(0, Math.floor(age / DAY_MS)),
    dispute_count: disputes,
    confirm_count: confirms,
    partial_count: partials,
    signature_valid: evidence.memory.signatureValid
  }
}

function countedAttestations (evidence: CountedEvidence, scored: PolicyScore): CountedAttestation[] {
  return evidence.attestations.map(({ id, record }) => {
    const counted: CountedAttestation = {
      id, witness: record.witness, verdict: record.attestation, witnessed_at: record.witnessed_at
    }
    const note = scored.attestations.get(id)
    if (note?.points !== undefined) counted.points = note.points
    if (note?.note !== undefined) counted.note = note.note
    return counted
  })
}
