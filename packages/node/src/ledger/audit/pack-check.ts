import * as dagCbor from '@ipld/dag-cbor'
import { isIsnadError } from '../../errors/index.js'
import { verifyRecordBytesAsync } from '../../record/index.js'
import { isRecordCid, type LedgerEvent } from '../../schema/index.js'
import { PackPayloadSchema, readPackRecords } from '../packs.js'
import type { RecordCheckOptions } from './record-check.js'

/**
 * A `memory.packed` event (docs/ledger-packs.md): its payload names a pack and the records in it, in
 * order, one Merkle leaf each (transparency-v1 R1: the record's CID bytes). The pack must be there
 * (inside the event or its file under `packs/<scope>/`), be a whole CAR whose blocks hash to their
 * CIDs, and hold one signed record per id named; each record must verify (record-v1 §5.2) and be
 * the one its id names.
 */

export interface PackedRecord {
  id: string
  /** The signed record's canonical bytes, as the pack holds them. */
  bytes: Uint8Array
  /** Decoded from `bytes`: what the index check compares with the index (undefined if it does not decode). */
  signed: unknown
  kind: string | undefined
}

export interface PackedRecords {
  /** The leaves the event adds: the ids it names, whether or not the pack could be read. */
  leaves: string[]
  records: PackedRecord[]
  problem: string | undefined
}

/** The leaves and records of a pack event; a problem instead of an error. */
export async function packedRecordsOf (dataDir: string, event: LedgerEvent): Promise<PackedRecords> {
  const parsed = PackPayloadSchema.safeParse(event.payload)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { leaves: [], records: [], problem: `payload.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` }
  }
  const payload = parsed.data
  const bad = payload.records.find((id) => !isRecordCid(id))
  if (bad !== undefined) return { leaves: [], records: [], problem: `payload.records names ${bad.slice(0, 80)}, not a record id` }
  try {
    const blocks = await readPackRecords(dataDir, event.scope, payload)
    const records = blocks.map((bytes, i): PackedRecord => {
      const signed = decoded(bytes)
      const kind = (signed as { record?: { kind?: unknown } } | undefined)?.record?.kind
      return { id: payload.records[i] as string, bytes, signed, kind: typeof kind === 'string' ? kind : undefined }
    })
    return { leaves: payload.records, records, problem: undefined }
  } catch (err) {
    if (!isIsnadError(err)) throw err
    return { leaves: payload.records, records: [], problem: `${err.code}: ${err.message}` }
  }
}

function decoded (bytes: Uint8Array): unknown {
  try {
    return dagCbor.decode(bytes)
  } catch {
    return undefined // the record check reports it
  }
}

/** The problem with one packed record, if any (never a rejection: several are in flight). */
export async function checkPackedRecord (record: PackedRecord, options: RecordCheckOptions): Promise<string | undefined> {
  try {
    const verified = await verifyRecordBytesAsync(record.bytes, { verifier: options.verifier, now: options.now })
    return verified.id === record.id ? undefined : `the pack holds ${verified.id} where its event names ${record.id}`
  } catch (err) {
    return `record ${record.id}: ${isIsnadError(err) ? `${err.code}: ${err.message}` : String(err)}`
  }
}
