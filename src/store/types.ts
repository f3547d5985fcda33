import type {
  AnchorRecord, AttestationRecord, ContentType, IsnadRecord, MemoryRecord, RecordKind, SignedRecord,
  WitnessRequestRecord
} from '../schema/index.js'

/**
 * A record as the store keeps it. The store holds only records that passed verifyRecord: it trusts
 * its caller (the node) for signatures and recomputes nothing but the id.
 */
export interface StoredRecord<R extends IsnadRecord = IsnadRecord> {
  id: string
  signed: SignedRecord<R>
}

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
  /** Score ≥ minTrust. Memories never scored count as 0. */
  minTrust?: number
  type?: ContentType
  /** did:key of the author. */
  author?: string
  /** created_at ≥ since (ISO-8601, inclusive). */
  since?: string
  /** created_at < until (ISO-8601, exclusive). */
  until?: string
  /** @default 50, at most 1000 */
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
 * Results are ordered by trust score descending, then created_at descending, then id ascending:
 * the most trustworthy, newest memories first (the provenance schema's "Querying by Trust").
 */
export interface QueryPage {
  items: QueryHit[]
  /** Present when more results may follow; pass back as `cursor`. */
  next?: string
}

export interface RecordStore {
  open: () => Promise<void>
  close: () => Promise<void>

  /**
   * Stores records atomically: either all are stored and indexed or none is (import relies on it).
   * Storing a record that is already present is a no-op. `trust` entries (for memories in this batch
   * or already stored) are written in the same atomic batch. Returns the ids newly stored.
   */
  putMany: (records: StoredRecord[], trust?: ReadonlyMap<string, TrustEntry>) => Promise<string[]>
  get: (id: string) => Promise<StoredRecord | null>
  getMemory: (id: string) => Promise<StoredRecord<MemoryRecord> | null>
  exists: (id: string) => Promise<boolean>
  /** How many records of each kind are stored. */
  count: () => Promise<Record<RecordKind, number>>

  /** Attestations whose `memory` is `memoryId`, in id order. */
  attestationsFor: (memoryId: string) => Promise<Array<StoredRecord<AttestationRecord>>>
  anchorsFor: (memoryId: string) => Promise<Array<StoredRecord<AnchorRecord>>>
  witnessRequestsFor: (memoryId: string) => Promise<Array<StoredRecord<WitnessRequestRecord>>>
  /** Ids of the attestations signed by `witness`, in id order. */
  attestationsBy: (witness: string) => Promise<string[]>
  /** Ids of memories whose lineage.supersedes is `memoryId`. */
  supersededBy: (memoryId: string) => Promise<string[]>

  /** Records the trust of a memory and re-keys its query indexes. */
  setTrust: (memoryId: string, trust: TrustEntry) => Promise<void>
  getTrust: (memoryId: string) => Promise<TrustEntry | null>

  query: (query: MemoryQuery) => Promise<QueryPage>
}
