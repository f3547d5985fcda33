import { z } from 'zod'
import { eventIdFor, type EventInput } from '../../ledger/index.js'
import { SignedRecordSchema, type EventType, type IsnadRecord, type LedgerEvent, type SignedRecord } from '../../schema/index.js'
import type { StoredRecord } from '../../store/index.js'

/** Where a record came from; kept in its event so an auditor can tell authored from received. */
export const RECORD_SOURCES = ['local', 'import', 'gossip', 'fetch', 'sync', 'replay'] as const
export type RecordSource = (typeof RECORD_SOURCES)[number]

/** The event types that carry a record: one Merkle leaf each (transparency-v1, DESIGN §4). */
export const RECORD_EVENT_TYPES = ['memory.captured', 'memory.distilled', 'memory.attested', 'memory.anchored', 'memory.witness_requested'] as const

const RecordPayloadSchema = z.object({
  id: z.string(),
  record: SignedRecordSchema,
  source: z.enum(RECORD_SOURCES)
})

export function recordEventType (record: IsnadRecord): EventType {
  switch (record.kind) {
    // A memory derived from others is a distillation (spec §5 memory.distilled).
    case 'memory': return record.lineage.derived_from.length > 0 ? 'memory.distilled' : 'memory.captured'
    case 'attestation': return 'memory.attested'
    case 'anchor': return 'memory.anchored'
    case 'witness_request': return 'memory.witness_requested'
  }
}

/** One record, one logical event: the key names the record, so a record is journaled once. */
export function recordIdempotencyKey (record: IsnadRecord, id: string): string {
  return `${recordEventType(record)}:${id}`
}

export function recordEventId (scope: string, stored: StoredRecord): string {
  return eventIdFor(scope, recordIdempotencyKey(stored.signed.record, stored.id))
}

function ownerOf (record: IsnadRecord): string {
  switch (record.kind) {
    case 'memory': return record.author.agent_id
    case 'attestation': return record.witness
    case 'anchor': return record.anchored_by
    case 'witness_request': return record.requester
  }
}

/**
 * The event that journals a stored record. Witness requests address other agents, so they are
 * shared; everything else stays private to the node until the network issue publishes it.
 */
export function recordEventOf (stored: StoredRecord, source: RecordSource, causalRefs: string[] = []): EventInput {
  const { record } = stored.signed
  return {
    type: recordEventType(record),
    actor: ownerOf(record),
    owner: ownerOf(record),
    visibility: record.kind === 'witness_request' ? 'shared' : 'private',
    idempotency_key: recordIdempotencyKey(record, stored.id),
    causal_refs: causalRefs,
    payload: { id: stored.id, record: stored.signed as unknown as Record<string, unknown>, source }
  }
}

export function isRecordEvent (event: LedgerEvent): boolean {
  return (RECORD_EVENT_TYPES as readonly string[]).includes(event.type)
}

/** The record an event carries (its payload was validated when it was written; checked again here). */
export function recordOfEvent (event: LedgerEvent): StoredRecord | null {
  if (!isRecordEvent(event)) return null
  const payload = RecordPayloadSchema.parse(event.payload)
  return { id: payload.id, signed: payload.record as SignedRecord }
}
