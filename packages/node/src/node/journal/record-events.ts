import * as dagCbor from '@ipld/dag-cbor'
import { z } from 'zod'
import {
  buildPack, eventIdFor, PACK_EVENT_TYPE, PACK_MAX_RECORDS, packNeedsFile, packPayloadOf, PackPayloadSchema, readPackRecords,
  type BuiltPack, type EventInput, type PackPayload
} from '../../ledger/index.js'
import { decodeCanonicalCbor, encodeCanonical } from '../../record/index.js'
import { checkSignedRecord, SignedRecordSchema, type EventType, type IsnadRecord, type LedgerEvent, type SignedRecord } from '../../schema/index.js'
import type { StoredRecord } from '../../record-index/index.js'

/** Where a record came from; kept in its event so an auditor can tell authored from received. */
export const RECORD_SOURCES = ['local', 'import', 'gossip', 'fetch', 'sync', 'replay'] as const
export type RecordSource = (typeof RECORD_SOURCES)[number]

/**
 * The event types that carry one record each (a witness request on `bus/`; every record before
 * packs, a layout still read): one Merkle leaf each (transparency-v1 R1). A `memory.packed`
 * event carries a batch's other records, one leaf each in the order it names them.
 */
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

/**
 * One record, one logical event: the key names the record, so a record is journaled once. A record
 * in a pack keeps this key's event id as its logical event id (the views' refs to it, recordEventId).
 */
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

/** What the journal step appends for a batch: events in ledger order, the packs to write first. */
export interface BatchEvents {
  inputs: EventInput[]
  /** Pack files the events name: each durable before the events are appended. */
  files: BuiltPack[]
  /** Every pack of the batch, in order: `inputs[i]` is the event of `packs[i]` (record-locations.ts). */
  packs: BuiltPack[]
  /** The batch's records in the order their events put them in the ledger (the Merkle leaves' order). */
  ordered: StoredRecord[]
}

/**
 * The events that journal a batch (docs/ledger-packs.md): its records in `memory.packed`
 * events, PACK_MAX_RECORDS at a time, each record's canonical bytes stored once; a witness request
 * keeps its own `memory.witness_requested` event on `bus/`, where the agents it addresses read it.
 */
export function batchEventsOf (fresh: readonly StoredRecord[], source: RecordSource): BatchEvents {
  const requests: StoredRecord[] = []
  const packed: StoredRecord[] = []
  for (const record of fresh) (record.signed.record.kind === 'witness_request' ? requests : packed).push(record)
  const inputs: EventInput[] = []
  const files: BuiltPack[] = []
  const packs: BuiltPack[] = []
  for (let at = 0; at < packed.length; at += PACK_MAX_RECORDS) {
    const slice = packed.slice(at, at + PACK_MAX_RECORDS)
    const pack = buildPack(slice.map((r) => r.bytes ?? encodeCanonical(r.signed)))
    const payload = packPayloadOf(pack, slice.map((r) => r.id), source)
    if (packNeedsFile(payload)) files.push(pack)
    packs.push(pack)
    inputs.push({
      type: PACK_EVENT_TYPE,
      actor: 'node',
      owner: 'node',
      visibility: 'private',
      idempotency_key: `${PACK_EVENT_TYPE}:${pack.cid}`,
      causal_refs: [],
      payload
    })
  }
  for (const request of requests) inputs.push(recordEventOf(request, source))
  return { inputs, files, packs, ordered: [...packed, ...requests] }
}

/** Whether the event journals records (one, or a pack of them). */
export function carriesRecords (event: LedgerEvent): boolean {
  return event.type === PACK_EVENT_TYPE || isRecordEvent(event)
}

/**
 * The records an event journals, in ledger order: its pack's (read from the event or its file,
 * checked whole: readPackRecords), or the one a per-record event embeds; [] for other events.
 * Each comes with its canonical bytes when it came from a pack (the store checks them against its id).
 */
export async function recordsOfEvent (event: LedgerEvent, dataDir: string): Promise<StoredRecord[]> {
  if (event.type !== PACK_EVENT_TYPE) {
    const record = recordOfEvent(event)
    return record === null ? [] : [record]
  }
  const payload = PackPayloadSchema.parse(event.payload)
  const blocks = await readPackRecords(dataDir, event.scope, payload)
  return packRecordsOf(payload, blocks)
}

/** A pack's records from its checked blocks: each decoded and schema-checked, named by the payload's ids, with its bytes. */
export function packRecordsOf (payload: PackPayload, blocks: readonly Uint8Array[]): StoredRecord[] {
  return blocks.map((bytes, i) => ({ id: payload.records[i] as string, signed: packRecordOf(bytes), bytes }))
}

/**
 * One pack block as a signed record. A node packs only records it verified, so their bytes are
 * canonical and valid: decoded in one pass (decodeCanonicalCbor) and checked without zod
 * (checkSignedRecord), which a reindex of 100k records spent ~0.6 s in. Any other bytes take the
 * general decoder and zod, which refuse them with the same errors as before.
 */
function packRecordOf (bytes: Uint8Array): SignedRecord {
  const value = decodeCanonicalCbor(bytes) ?? dagCbor.decode(bytes)
  return checkSignedRecord(value) ?? SignedRecordSchema.parse(value) as SignedRecord
}
