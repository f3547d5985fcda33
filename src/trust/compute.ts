import { roundTrustScore, type CountedAttestation, type TrustFactors, type TrustResult } from '../schema/index.js'
import { DAY_MS, DEFAULT_TRUST_POLICY } from './constants.js'
import { countEvidence } from './evidence.js'
import { trustLevelOf } from './level.js'
import { instantOf } from './order.js'
import { getTrustPolicy } from './policies.js'
import type { ComputeTrustOptions, CountedEvidence, PolicyScore, TrustInput } from './types.js'

/**
 * The trust of one memory with its explanation (DESIGN §2). Pure: the clock (`input.now`) and the
 * reputation lookup are inputs, signatures and anchors arrive already checked, and the result does
 * not depend on the order of `attestations` or `anchors`.
 */
export function computeTrust (input: TrustInput, options: ComputeTrustOptions = {}): TrustResult {
  const policy = typeof options.policy === 'object' ? options.policy : getTrustPolicy(options.policy ?? DEFAULT_TRUST_POLICY)
  const evidence = countEvidence(input)
  const scored = policy.score(evidence)
  const unclamped = roundTrustScore(scored.contributions.reduce((sum, c) => sum + c.points, 0))
  // The schema's `max(0.0, min(1.0, score))`.
  const score = Math.min(1, Math.max(0, unclamped))
  const result: TrustResult = {
    score,
    level: trustLevelOf(score),
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
  if (score !== unclamped) {
    result.clamped = true
    result.unclamped_score = unclamped
  }
  return result
}

function factorsOf (evidence: CountedEvidence): TrustFactors {
  const countOf = (verdict: string): number => evidence.attestations.filter((a) => a.record.attestation === verdict).length
  const age = evidence.now - instantOf(evidence.memory.record.created_at, `memory ${evidence.memory.id}`)
  return {
    author_reputation: evidence.authorReputation,
    witness_count: evidence.attestations.length,
    anchor_count: evidence.anchors.length,
    // Whole days; a memory dated slightly ahead (within the allowed clock skew) is 0 days old.
    age_days: Math.max(0, Math.floor(age / DAY_MS)),
    dispute_count: countOf('dispute'),
    confirm_count: countOf('confirm'),
    partial_count: countOf('partial'),
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
