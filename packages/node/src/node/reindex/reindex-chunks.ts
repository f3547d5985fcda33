import { IsnadError, type ErrorCode } from '../../errors/index.js'
import type { ScopeSnapshot } from '../../ledger/index.js'
import type { SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent, MemoryRecord, SignedRecord, TrustPolicyName } from '../../schema/index.js'
import type { RecordLocation, StoredRecord, TrustEntry } from '../../record-index/index.js'

/*
 * What the reindex reader thread (reindex-worker.ts) sends the rebuilding thread, a few thousand
 * events at a time. A chunk is one JSON text (one JSON.parse on arrival, far cheaper than cloning
 * thousands of objects one by one).
 */

export type IdempotencyPair = Pick<LedgerEvent, 'idempotency_key' | 'event_id'>

/** A chunk as it travels: `text` is the JSON of EventsJson or MemoriesJson. */
export type WireChunk =
  | { kind: 'events', text: string }
  | { kind: 'memories', text: string }

/** The events of the ledger in order, and what of them the rebuild writes as it reads. */
export interface EventsChunk {
  kind: 'events'
  events: number
  lastLc: number
  /** Idempotency key and event id of every event. */
  keys: IdempotencyPair[]
  /** Record ids in ledger order: the Merkle log's leaves. */
  ids: string[]
  /**
   * Every record except memories (they wait for their trust), as schema-checked; the store encodes
   * them and checks their ids as it writes them.
   */
  records: StoredRecord[]
  /** Where the ledger holds this chunk's records' bytes (their pack blocks, memories' too): what the index keeps for them. */
  locations: Map<string, RecordLocation>
  /** Checkpoints of `memory.checkpointed` events, in ledger order. */
  checkpoints: SignedCheckpoint[]
}

/**
 * Memories with their final trust, once the whole ledger has been read and scored; the store encodes
 * them and checks their ids as it writes them, as for the other records.
 */
export interface MemoriesChunk {
  kind: 'memories'
  records: Array<StoredRecord<MemoryRecord>>
  trust: Map<string, TrustEntry>
  locations: Map<string, RecordLocation>
}

export type ReadChunk = EventsChunk | MemoriesChunk

interface EventsJson {
  events: number
  lastLc: number
  /** Idempotency key, event id, idempotency key, event id, … */
  keys: string[]
  ids: string[]
  records: Array<[id: string, signed: SignedRecord]>
  locations: Array<[id: string, location: RecordLocation]>
  checkpoints: SignedCheckpoint[]
}

interface MemoriesJson {
  records: Array<[id: string, signed: SignedRecord]>
  trust: TrustEntry[]
  locations: Array<[id: string, location: RecordLocation]>
}

/** Collects one events chunk in the reader thread. */
export class EventsChunkBuilder {
  private events = 0
  private lastLc = 0
  private readonly keys: string[] = []
  private readonly ids: string[] = []
  private readonly records: Array<[string, SignedRecord]> = []
  private readonly locations: Array<[string, RecordLocation]> = []
  private readonly checkpoints: SignedCheckpoint[] = []

  /** Events, or records when more (a `memory.packed` event holds up to PACK_MAX_RECORDS). */
  get count (): number {
    return Math.max(this.events, this.ids.length)
  }

  addEvent (event: LedgerEvent): void {
    this.events++
    this.lastLc = event.lc
    this.keys.push(event.idempotency_key, event.event_id)
  }

  /** A record event's record: a leaf of the log; stored now unless it is a memory. */
  addRecord ({ id, signed }: StoredRecord, location: RecordLocation | undefined): void {
    this.ids.push(id)
    // A memory's location goes too, though the memory waits for its trust: the store names the
    // ledger files in the order locations come (RecordValues), ledger order, as the node did.
    if (location !== undefined) this.locations.push([id, location])
    if (signed.record.kind !== 'memory') this.records.push([id, signed])
  }

  addCheckpoint (checkpoint: SignedCheckpoint): void {
    this.checkpoints.push(checkpoint)
  }

  finish (): WireChunk {
    const json: EventsJson = { events: this.events, lastLc: this.lastLc, keys: this.keys, ids: this.ids, records: this.records, locations: this.locations, checkpoints: this.checkpoints }
    return { kind: 'events', text: JSON.stringify(json) }
  }
}

/** One chunk of scored memories. */
export function memoriesChunk (memories: ReadonlyArray<StoredRecord<MemoryRecord>>, trust: readonly TrustEntry[], locations: ReadonlyMap<string, RecordLocation>): WireChunk {
  const located: Array<[string, RecordLocation]> = []
  for (const { id } of memories) {
    const location = locations.get(id)
    if (location !== undefined) located.push([id, location])
  }
  const json: MemoriesJson = { records: memories.map((m) => [m.id, m.signed]), trust: [...trust], locations: located }
  return { kind: 'memories', text: JSON.stringify(json) }
}

/** The receiving thread's form of a chunk. */
export function decodeChunk (chunk: WireChunk): ReadChunk {
  if (chunk.kind === 'memories') {
    const json = JSON.parse(chunk.text) as MemoriesJson
    const records = json.records.map(([id, signed]): StoredRecord<MemoryRecord> => ({ id, signed: signed as SignedRecord<MemoryRecord> }))
    return { kind: 'memories', records, trust: new Map(records.map((r, i) => [r.id, json.trust[i] as TrustEntry])), locations: new Map(json.locations) }
  }
  const json = JSON.parse(chunk.text) as EventsJson
  const keys: IdempotencyPair[] = []
  for (let i = 0; i < json.keys.length; i += 2) keys.push({ idempotency_key: json.keys[i] as string, event_id: json.keys[i + 1] as string })
  return {
    kind: 'events',
    events: json.events,
    lastLc: json.lastLc,
    keys,
    ids: json.ids,
    records: json.records.map(([id, signed]) => ({ id, signed })),
    locations: new Map(json.locations),
    checkpoints: json.checkpoints
  }
}

/** The node's trust setting as data: the reader thread builds the setting from it (src/reputation TrustSpec). */
export interface ReindexTrust {
  policy: TrustPolicyName
  roots: string[]
  /** The key events ledger: witnesses count per identity, refused keys not at all. */
  keyEvents: string
  /**
   * The shard count the node's operator set (the `shard-count` setting): drawn witnesses' stated
   * counts are judged against it (witness-draw-v1 W12), as the daemon judges them. Absent: from N̂.
   */
  shardCount?: number
}

/** What the rebuilding thread asks of the reader thread (its first message). */
export interface ReaderInput {
  snapshot: ScopeSnapshot
  /** When memories are scored (the rebuild's clock, read once). */
  now: number
  /** What memories are scored with: the node's policy and roots, and its key events file (plain data). */
  trust: ReindexTrust
  /** Events per events chunk, memories per memories chunk. */
  batch: number
  /** Chunks the reader may send ahead of the ones the rebuild has taken. */
  window: number
}

/** An error as it crosses threads: an IsnadError keeps its code and details. */
export interface WireError {
  name: string
  message: string
  code?: ErrorCode
  details?: Record<string, unknown>
}

/** Rebuild → reader: what to read, then one `taken` for each chunk the rebuild takes. */
export type RebuildMessage = { kind: 'read', input: ReaderInput } | { kind: 'taken' }

/** Reader → rebuild. */
export type ReaderMessage =
  | WireChunk
  | { kind: 'done' }
  | { kind: 'failed', error: WireError }

export function wireError (err: unknown): WireError {
  if (err instanceof IsnadError) {
    return { name: err.name, message: err.message, code: err.code, ...(err.details === undefined ? {} : { details: JSON.parse(JSON.stringify(err.details)) as Record<string, unknown> }) }
  }
  return err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) }
}

/** The error the reader thread met, as it would have been thrown in this thread. */
export function errorOfWire (wire: WireError): Error {
  if (wire.code !== undefined) return new IsnadError(wire.code, wire.message, wire.details === undefined ? {} : { details: wire.details })
  const err = new Error(wire.message)
  err.name = wire.name
  return err
}
