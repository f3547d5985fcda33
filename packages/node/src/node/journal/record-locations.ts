import { access } from 'node:fs/promises'
import { join } from 'node:path'
import {
  dataRelative, inlineCarAt, PACK_EVENT_TYPE, packFileName, PackPayloadSchema, readPackBlocks, type AppendResult, type BuiltPack, type PackPayload
} from '../../ledger/index.js'
import type { LedgerEvent } from '../../schema/index.js'
import type { RecordLocation, StoredRecord } from '../../record-index/index.js'
import { packRecordsOf, recordsOfEvent } from './record-events.js'

/*
 * Where a `memory.packed` event's records are in the ledger (docs/ledger-packs.md, "Where the index
 * finds a record"): the index keeps these locations instead of the records' bytes, so each record
 * is stored once. An inline pack's records are located in its event's line — the file, the offset
 * of the first character of the CAR's base64 text, and each block's offset and length in the CAR;
 * a pack file's in the file. The journal step computes them from the lines it appended
 * (EventLedger.append's `line`); reindex and recovery from the lines they read.
 */

/** A pack's blocks: where each record's bytes start in the CAR and how long they are, in record order. */
export interface PackBlocks {
  offsets: readonly number[]
  lengths: readonly number[]
}

/** Where a line is: its file (absolute), the byte offset of its first byte, and its bytes. */
export interface LineAt {
  file: string
  offset: number
  bytes: Uint8Array
}

const QUOTE = 0x22

/**
 * The locations of a pack event's records, keyed by record id; empty when the line cannot be
 * located (no inline CAR where the payload says there is one): the index then keeps the bytes.
 */
export function packLocations (dataDir: string, scope: string, payload: PackPayload, line: LineAt, blocks: PackBlocks): Map<string, RecordLocation> {
  const out = new Map<string, RecordLocation>()
  let place: (i: number) => RecordLocation
  if (payload.car === undefined) {
    const file = packFileName(scope, payload.pack)
    place = (i) => ({ kind: 'pack', file, offset: blocks.offsets[i] as number, length: blocks.lengths[i] as number })
  } else {
    const carAt = inlineCarAt(line.bytes)
    // The text found must be the payload's CAR, whole: closed by its quote right where it ends.
    if (carAt < 0 || line.bytes[carAt + payload.car.length] !== QUOTE || line.bytes[carAt - 1] !== QUOTE) return out
    const file = dataRelative(dataDir, line.file)
    const base = line.offset + carAt
    place = (i) => ({ kind: 'inline', file, base, offset: blocks.offsets[i] as number, length: blocks.lengths[i] as number })
  }
  payload.records.forEach((id, i) => { out.set(id, place(i)) })
  return out
}

/**
 * The journal step's locations: for each pack event it appended (the first `packs.length` inputs
 * are the batch's packs, batchEventsOf), from the line the ledger reports it wrote.
 */
export function appendedLocations (dataDir: string, scope: string, packs: readonly BuiltPack[], results: readonly AppendResult[]): Map<string, RecordLocation> {
  const out = new Map<string, RecordLocation>()
  packs.forEach((pack, i) => {
    const result = results[i]
    if (result === undefined || !result.appended || result.line === undefined) return
    const payload = PackPayloadSchema.parse(result.event.payload)
    for (const [id, location] of packLocations(dataDir, scope, payload, result.line, pack)) out.set(id, location)
  })
  return out
}

/**
 * The locations of a pack event read back from the ledger (reindex, recovery). A line in an
 * archived shard (`.gz`) cannot be read in place: its records are located in the pack's file,
 * which `ledger archive` writes out before it compresses a shard, else not at all (held).
 */
export async function readLocations (dataDir: string, scope: string, payload: PackPayload, line: LineAt, blocks: PackBlocks): Promise<Map<string, RecordLocation>> {
  if (!line.file.endsWith('.gz')) return packLocations(dataDir, scope, payload, line, blocks)
  const file = packFileName(scope, payload.pack)
  const exists = await access(join(dataDir, ...file.split('/'))).then(() => true, () => false)
  return exists ? packLocations(dataDir, scope, { ...payload, car: undefined }, line, blocks) : new Map()
}

/** A line read back from the ledger (an event entry): its file, offset and text. */
export interface ReadLine {
  file: string
  offset: number
  text?: string
}

/**
 * recordsOfEvent, with the locations of a pack event's records when its line is given (reindex,
 * recovery): the records checked as recordsOfEvent checks them, the pack read once.
 */
export async function locatedRecordsOf (event: LedgerEvent, dataDir: string, line: ReadLine): Promise<{ records: StoredRecord[], locations: Map<string, RecordLocation> }> {
  if (event.type !== PACK_EVENT_TYPE) return { records: await recordsOfEvent(event, dataDir), locations: new Map() }
  const payload = PackPayloadSchema.parse(event.payload)
  const blocks = await readPackBlocks(dataDir, event.scope, payload)
  const records = packRecordsOf(payload, blocks.records)
  if (line.text === undefined) return { records, locations: new Map() }
  const at: LineAt = { file: line.file, offset: line.offset, bytes: Buffer.from(line.text, 'utf8') }
  const locations = await readLocations(dataDir, event.scope, payload, at, { offsets: blocks.offsets, lengths: blocks.records.map((b) => b.length) })
  return { records, locations }
}
