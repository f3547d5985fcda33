import { z } from 'zod'
import { isIsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { verifyRecordAsync } from '../../record/index.js'
import { isRecordCid, type IsnadRecord, type LedgerEvent } from '../../schema/index.js'

/**
 * The payload of a record event (docs/architecture.md, "The data directory"): `{ id: <record CID>, record: <signed
 * record>, source }`. Its `id` is the event's Merkle leaf (transparency-v1 R1: the CID bytes); the
 * record must verify (record-v1 §5.2), be the one `id` names, and be of the kind the event type says.
 */

/**
 * `source` says where the node got the record (local, import, gossip, sync, replay, …). The set grows
 * with the node's transports, so the audit asks only for a short name: it proves nothing either way.
 */
const RecordPayloadSchema = z.looseObject({
  id: z.string(),
  record: z.unknown(),
  source: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case name')
})

export interface RecordCheckOptions {
  verifier: SignatureVerifier
  /** ms since the epoch: record-v1 R16 refuses records dated ahead of it. */
  now: number
  /** Verify the signed record itself (signature, id); the line hash has already proved the line intact. */
  checkRecords: boolean
}

export interface RecordLeaf {
  /** The leaf's CID when the payload names a record id, so the log can be rebuilt even if the record is bad. */
  leaf: string | undefined
  problem: string | undefined
  /** The signed record to verify, when the payload names one. */
  record: unknown
}

/** The record kind each record event type carries. */
const KIND_OF_TYPE: Readonly<Record<string, IsnadRecord['kind']>> = {
  'memory.captured': 'memory',
  'memory.distilled': 'memory',
  'memory.attested': 'attestation',
  'memory.anchored': 'anchor',
  'memory.witness_requested': 'witness_request'
}

/** The payload's shape and leaf: synchronous, so the log is rebuilt in lc order. */
export function recordLeafOf (event: LedgerEvent): RecordLeaf {
  const parsed = RecordPayloadSchema.safeParse(event.payload)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { leaf: undefined, problem: `payload.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`, record: undefined }
  }
  const { id, record } = parsed.data
  if (!isRecordCid(id)) return { leaf: undefined, problem: `payload.id ${id.slice(0, 80)} is not a record id`, record: undefined }
  return { leaf: id, problem: undefined, record }
}

/** The problem with the record `id` an event of `type` carries, if any (the signature may be checked off-thread). */
export async function checkCarriedRecord (type: string, id: string, record: unknown, options: RecordCheckOptions): Promise<string | undefined> {
  try {
    const verified = await verifyRecordAsync(record, { verifier: options.verifier, now: options.now })
    if (verified.id !== id) return `payload.record is ${verified.id}, not ${id}`
    return kindProblem(type, verified.signed.record)
  } catch (err) {
    // never a rejection: several checks are in flight, and a problem with the record is a finding
    return `record ${id}: ${isIsnadError(err) ? `${err.code}: ${err.message}` : String(err)}`
  }
}

/** captured/distilled carry memories, distilled exactly those with lineage.derived_from (docs/architecture.md, "The data directory"). */
function kindProblem (type: string, record: IsnadRecord): string | undefined {
  const expected = KIND_OF_TYPE[type]
  if (expected !== record.kind) return `a ${type} event carries a ${record.kind} record`
  if (record.kind !== 'memory') return undefined
  const distilled = record.lineage.derived_from.length > 0
  if (distilled !== (type === 'memory.distilled')) {
    return `a ${type} event carries a memory ${distilled ? 'with' : 'without'} lineage.derived_from`
  }
  return undefined
}
