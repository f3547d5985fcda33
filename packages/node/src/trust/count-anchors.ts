import { MAX_CLOCK_SKEW_MS, type RefusedAnchor } from '../schema/index.js'
import { instantOf, sortByTimeThenId, sortRefusals } from './evidence-order.js'
import type { AcceptedAnchor, AnchorEvidence, MemoryEvidence } from './types.js'

export interface CountedAnchors {
  accepted: AcceptedAnchor[]
  refused: RefusedAnchor[]
}

/**
 * The counting rules for anchors (docs/trust.md §0: "only verified signatures and verified anchors count"):
 * the provenance schema's `verify_anchor(a)`, with the anchor verifier's finding passed in (src/anchor:
 * the state as of its last check, at most a TTL old when the node reads it, anchors-v1 §5).
 * Unlike an attestation, an anchor may predate the memory: it can point at content published first
 * (the schema's example 2 anchors a post from 2026-01-30 in a memory of 2026-02-05).
 */
export function countAnchors (memory: MemoryEvidence, anchors: readonly AnchorEvidence[], now: number): CountedAnchors {
  const refused: RefusedAnchor[] = []
  const survivors: AcceptedAnchor[] = []
  for (const anchor of anchors) {
    const at = instantOf(anchor.record.created_at, 'anchor', anchor.id)
    const refusal = firstRefusal(memory, anchor, at, now)
    if (refusal === null) survivors.push({ ...anchor, at })
    else refused.push(refusal)
  }
  // The same evidence anchored twice is one piece of evidence: the first anchor (by created_at, then
  // id) counts, the others are duplicates. Otherwise anyone could reach `valid_anchors >= 2` by
  // re-signing one URL.
  sortByTimeThenId(survivors)
  // One anchor cannot duplicate anything (most memories have at most one).
  if (survivors.length < 2) return { accepted: survivors, refused: sortRefusals(refused) }
  const kept = new Map<string, AcceptedAnchor>()
  for (const anchor of survivors) {
    const key = JSON.stringify([anchor.record.type, anchor.record.reference])
    const first = kept.get(key)
    if (first === undefined) {
      kept.set(key, anchor)
    } else {
      const reason = first.id === anchor.id
        ? `anchor ${anchor.id} appears more than once; it counts once`
        : `anchor ${anchor.id} has the same type and reference as anchor ${first.id}; the same evidence counts once`
      refused.push({ id: anchor.id, code: 'DUPLICATE_ANCHOR', reason, duplicate_of: first.id })
    }
  }
  return { accepted: [...kept.values()], refused: sortRefusals(refused) }
}

function firstRefusal (
  memory: MemoryEvidence, { id, record, signatureValid, verification }: AnchorEvidence, at: number, now: number
): RefusedAnchor | null {
  if (!signatureValid) {
    return { id, code: 'SIGNATURE_INVALID', reason: `the signature of ${record.anchored_by} on anchor ${id} does not verify` }
  }
  if (record.memory !== memory.id) {
    return { id, code: 'WRONG_MEMORY', reason: `anchor ${id} is for memory ${record.memory}, not ${memory.id}` }
  }
  // record-v1 R5, as for every record (R16: records dated more than 15 minutes ahead are refused).
  if (at > now + MAX_CLOCK_SKEW_MS) {
    return {
      id,
      code: 'TIMESTAMP_IN_FUTURE',
      reason: `anchor ${id} is dated ${record.created_at}, more than 15 minutes after ${new Date(now).toISOString()}`
    }
  }
  if (verification.state !== 'verified') {
    const detail = verification.reason === undefined ? '' : ` (${verification.reason})`
    const when = verification.checked_at === undefined ? '' : ` as of ${verification.checked_at}`
    return {
      id,
      code: 'ANCHOR_NOT_VERIFIED',
      reason: `anchor ${id} (${record.type} ${record.reference}) is ${verification.state}${when}${detail}; only verified anchors count`,
      state: verification.state
    }
  }
  return null
}
