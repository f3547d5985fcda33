import type {
  AnchorRecord, AttestationRecord, ContentType, IsnadRecord, MemoryRecord, RecordKind, SignedRecord,
  WitnessRequestRecord
} from './records.js'

/**
 * A record as the store keeps it. The store holds only records that passed verifyRecord: it trusts
 * its caller (the node) for signatures and recomputes nothing but the id.
 */
export interface StoredRecord<R extends IsnadRecord = IsnadRecord> {
  id: string
  signed: SignedRecord<R>
  /**
   * Optional on input to putMany, never present on what a store returns: the canonical DAG-CBOR of
   * `signed` as verification built it (VerifiedRecord.bytes), so the store need not encode again.
   * The store checks that they are laid out as `{ record, signature }` with this signature and that
   * the record part hashes to `id` (one SHA-256), so what it keeps is always the canonical encoding
   * of the record named `id` — unless they are the very bytes verification built for `id` in this
   * process (verifiedIdOf), already hashed to it; it trusts the caller that `signed.record` is that
   * record, since checking would mean encoding it, the cost this field saves. Absent, the store
   * encodes `signed`.
   */
  bytes?: Uint8Array
}

/**
 * Where a record's canonical bytes (record-v1 §2.4) are in the ledger (docs/ledger-packs.md): the
 * block of a pack, inside its `memory.packed` event or in a pack file. The LevelDB index keeps this
 * instead of the bytes, so each record is stored once; reads pread the block and hash it against
 * the id. `file` is relative to the `.memory/` directory, with `/` separators.
 */
export type RecordLocation =
  /**
   * A pack inside its event's line: `base` is the file offset of the first character of the CAR's
   * base64 text (the event's `car`), `offset` and `length` the block's bytes in the CAR.
   */
  | { kind: 'inline', file: string, base: number, offset: number, length: number }
  /** A pack file (`packs/<scope>/<CID>.car`): the block's bytes at `offset`, `length` long. */
  | { kind: 'pack', file: string, offset: number, length: number }

/** The indexed trust of one memory, written by the node whenever its evidence changes. */
export interface TrustEntry {
  /** In [0, 1], rounded to 4 decimals. */
  score: number
  level: string
  policy: string
  computed_at: string
}

export interface MemoryQuery {
  /** Every tag must be present (AND). */
  tags?: string[]
  /** Score ≥ minTrust, in [0, 1]. Memories never scored count as 0. */
  minTrust?: number
  type?: ContentType
  /** did:key of the author. */
  author?: string
  /** created_at ≥ since (ISO-8601, inclusive; compared as instants, so `…00Z` equals `…00.000Z`). */
  since?: string
  /** created_at < until (ISO-8601, exclusive). */
  until?: string
  /** @default 50, at most 1000 (constants.ts DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT) */
  limit?: number
  /** Opaque cursor from a previous page's `next`. */
  cursor?: string
}

export interface QueryHit {
  id: string
  trust: number
  created_at: string
}

/**
 * Results are ordered by trust score descending, then created_at descending (as an instant), then
 * id ascending: the most trustworthy, newest memories first (the provenance schema's "Querying by
 * Trust").
 */
export interface QueryPage {
  items: QueryHit[]
  /** Present when more results may follow; pass back as `cursor`. */
  next?: string
}

/**
 * Every method but open and close throws IsnadError STORE_CLOSED before open() and after close().
 * Closing twice is fine; a closed store may be opened again.
 */
export interface RecordStore {
  /** STORE_LOCKED when another process holds the data directory (a running daemon). */
  open: () => Promise<void>
  close: () => Promise<void>

  /**
   * Stores records atomically: either all are stored and indexed or none is (import relies on it).
   * Storing a record that is already present is a no-op. `trust` entries (for memories in this batch
   * or already stored) are written in the same atomic batch; one with the score, level and policy the
   * memory already has is not (prepare.ts sameTrust: the stored `computed_at` stays, the time the
   * node computed that score). Returns the ids newly stored.
   * Refuses the whole batch with CID_MISMATCH when an `id` is not the CID of its record, NOT_FOUND
   * when a trust entry names no memory of the batch or the store, USAGE when a score is outside [0, 1].
   *
   * `locations` says where the ledger holds records' bytes (the journal step's packs): a store with
   * a ledger keeps the location instead of the bytes (the journal computed it from the line it wrote;
   * every read checks the bytes found there against the id).
   * Records without one, and every record of a store without a ledger, are kept as bytes.
   */
  putMany: (records: StoredRecord[], trust?: ReadonlyMap<string, TrustEntry>, locations?: ReadonlyMap<string, RecordLocation>) => Promise<string[]>
  get: (id: string) => Promise<StoredRecord | null>
  getMemory: (id: string) => Promise<StoredRecord<MemoryRecord> | null>
  exists: (id: string) => Promise<boolean>
  /** `exists` for many ids in one call (one native round trip on LevelDB); answers in input order. */
  existsMany: (ids: readonly string[]) => Promise<boolean[]>
  /**
   * The stored canonical bytes (record-v1 §2.4) of each record, in input order; undefined for an id
   * not stored. Nothing is decoded: for serving records to peers as they are (sync, fetch).
   */
  getBytesMany: (ids: readonly string[]) => Promise<Array<Uint8Array | undefined>>
  /** How many records of each kind are stored. */
  count: () => Promise<Record<RecordKind, number>>

  /** Attestations whose `memory` is `memoryId`, in id order. */
  attestationsFor: (memoryId: string) => Promise<Array<StoredRecord<AttestationRecord>>>
  /** Anchors of `memoryId`, in id order. */
  anchorsFor: (memoryId: string) => Promise<Array<StoredRecord<AnchorRecord>>>
  /** Witness requests for `memoryId`, in id order. */
  witnessRequestsFor: (memoryId: string) => Promise<Array<StoredRecord<WitnessRequestRecord>>>
  /** Ids of memories whose lineage.supersedes is `memoryId`, in id order. */
  supersededBy: (memoryId: string) => Promise<string[]>
  /**
   * Whether attestations or anchors of `memoryId` are stored while the memory itself is not (they
   * arrived first). False once the memory is stored. Answered from memory: ingest asks it for each
   * memory new to the store, whose evidence then need not be listed when the answer is false.
   */
  hasOrphanEvidence: (memoryId: string) => Promise<boolean>

  /** Records the trust of a memory and re-keys its query indexes. NOT_FOUND for an unknown memory. */
  setTrust: (memoryId: string, trust: TrustEntry) => Promise<void>
  getTrust: (memoryId: string) => Promise<TrustEntry | null>

  /** USAGE for a limit outside 1–1000, a minTrust outside [0, 1], a bad type, time or cursor. */
  query: (query: MemoryQuery) => Promise<QueryPage>
}
