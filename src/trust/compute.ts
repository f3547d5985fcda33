import { roundTrustScore, type CountedAttestation, type TrustFactors, type TrustResult } from '../schema/index.js'
import { DAY_MS, DEFAULT_TRUST_POLICY } from './constants.js'
import { countEvidence } from './count-evidence.js'
import { trustLevelOf } from './level.js'
import { instantOf } from './evidence-order.js'
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
  let sum = 0
  for (const { points } of scored.contributions) sum += points
  const unclamped = roundTrustScore(sum)
  // The schema's `max(0.0, min(1.0, score))`.
  const score = Math.min(1, Math.max(0, unclamped))
  const result: TrustResult = {
    score,
    level: trustLevelOf(score),
    policy: policy.name,
    computed_at: isoStringOf(input.now),
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

/**
 * `now` as an ISO 8601 string. A node scores a whole batch at one `now`, so the last one is kept
 * rather than built again for every memory.
 */
let lastInstant = Number.NaN
let lastIso = ''
function isoStringOf (now: number): string {
  if (now !== lastInstant) {
    lastIso = new Date(now).toISOString()
    lastInstant = now
  }
  return lastIso
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
