import { Level } from 'level'
import { diskFullError, isDiskFull, IsnadError } from '../../errors/index.js'
import type { IdempotencyIndex } from '../../ledger/index.js'
import { cidOfLeafData, leafDataOfCid, openMerkleLog, RECORD_LEAF_CODEC, type LevelNodeDb, type MerkleLog, type MerkleNodeStore, type SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent, WitnessRequestRecord } from '../../schema/index.js'
import { asIndexError, BULK_WRITE_BUFFER_BYTES, indexCorruptError, isLevelCorruption, LATIN1, WriteBatch, type StoredRecord } from '../../record-index/index.js'
import { nativeMerkleHasher } from './merkle-hasher.js'

const INDEXED_LC = 'indexed_lc'
/** The Merkle log's sublevel (`merkle` before index layout 7: a one-letter name, in every key). */
const MERKLE_SUBLEVEL = 'm'
const LATEST_CHECKPOINT = 'checkpoint'

/**
 * The journal's derived state in its own LevelDB (`.memory/index/journal/`), rebuilt by reindex
 * from the ledgers alone: idempotency keys of every event, the Merkle log (sublevel `m`: each
 * leaf's record CID, kept as its digest: RECORD_LEAF_CODEC, and the subtree hashes, binary keys: src/merkle/log-keys.ts), how far the
 * index has applied the ledger (`indexed_lc`), and the checkpoints seen per log. The record ids in
 * log order, which sync-v1 serves, are the log's leaves themselves (recordsSince): since index
 * layout 7 there is no `leaves` sublevel beside them.
 */
export class JournalState {
  readonly merkle: MerkleLog
  private readonly db: Level<string, string>
  private readonly keys
  private readonly meta
  private readonly checkpoints
  private readonly requests
  /** Idempotency keys waiting for the next setIndexedLc (deferKeys). */
  private readonly deferred = new Map<string, string>()

  private constructor (db: Level<string, string>, merkle: MerkleLog) {
    this.db = db
    this.merkle = merkle
    this.keys = db.sublevel<string, string>('keys', { valueEncoding: 'utf8' })
    this.meta = db.sublevel<string, string>('meta', { valueEncoding: 'utf8' })
    this.checkpoints = db.sublevel<string, string>('checkpoints', { valueEncoding: 'utf8' })
    this.requests = db.sublevel<string, string>('requests', { valueEncoding: 'utf8' })
  }

  /** The sync cursor saved for a peer's log (sync-v1 §4), or null before the first sync. */
  async syncCursor (peerId: string): Promise<number | null> {
    const text = await this.meta.get(`cursor\0${peerId}`)
    return text === undefined ? null : Number(text)
  }

  async setSyncCursor (peerId: string, cursor: number): Promise<void> {
    await this.meta.put(`cursor\0${peerId}`, String(cursor))
  }

  /** Every witness request this node holds, by id. */
  async * witnessRequests (): AsyncGenerator<{ id: string, record: WitnessRequestRecord }> {
    for await (const [id, text] of this.requests.iterator()) yield { id, record: JSON.parse(text) as WitnessRequestRecord }
  }

  /**
   * What a store call (or a chunk of a rebuild) adds to this LevelDB once its records are indexed:
   * their leaves in the Merkle log (one atomic batch, which also gives peers "every record after
   * position n" in this node's log order: sync-v1, recordsSince), then in one batch the witness
   * requests among the records, for the inbox (gossip-v1 §4), and the idempotency keys of their events
   * (the journal defers those here from the ledger append, so a store call makes one write instead
   * of three; see Journal.journaled for why that is safe). After a crash between the two batches,
   * replay appends the records again (they come back as already in the log) and writes the rest.
   */
  async applyRecords (ids: readonly string[], { requests = [], events = [] }: {
    requests?: ReadonlyArray<StoredRecord<WitnessRequestRecord>>
    events?: ReadonlyArray<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>>
  } = {}): Promise<void> {
    if (ids.length > 0) await this.merkle.append(ids.map((id) => leafDataOfCid(id)))
    const batch = new WriteBatch()
    for (const r of requests) batch.put(this.requests, r.id, JSON.stringify(r.signed.record))
    for (const e of events) batch.put(this.keys, e.idempotency_key, e.event_id)
    await batch.commit(this.db)
  }

  /**
   * Record ids at log positions ≥ `cursor`, at most `limit`, and the cursor after them: the log's
   * own leaves (each a record's CID bytes), read from their columns in one getMany.
   */
  async recordsSince (cursor: number, limit: number): Promise<{ ids: string[], next: number }> {
    if (limit <= 0 || cursor >= this.merkle.size) return { ids: [], next: cursor }
    const ids = (await this.merkle.leavesFrom(cursor, limit)).map(cidOfLeafData)
    return { ids, next: cursor + ids.length }
  }

  /** `bulk`: a rebuild into an empty directory, with LevelDB's larger write buffer (see LevelRecordStoreInit.bulk). */
  static async open (location: string, { bulk = false }: { bulk?: boolean } = {}): Promise<JournalState> {
    const db = new Level<string, string>(location, { valueEncoding: 'utf8', ...(bulk ? { writeBufferSize: BULK_WRITE_BUFFER_BYTES } : {}) })
    try {
      await db.open()
    } catch (cause) {
      if (isLevelCorruption(cause)) throw indexCorruptError(location, cause)
      if (isDiskFull(cause)) throw diskFullError(`the journal state at ${location}`, cause, { location })
      if ((cause as { cause?: { code?: unknown } }).cause?.code !== 'LEVEL_LOCKED') {
        throw new IsnadError('IO_ERROR', `cannot open the journal state at ${location}`, { cause, details: { location } })
      }
      throw new IsnadError('STORE_LOCKED', 'the data directory is in use by another isnad process (a running daemon?)', { cause })
    }
    try {
      // Binary keys (src/merkle/log-keys.ts), written one byte per character.
      const nodes = db.sublevel<string, Uint8Array>(MERKLE_SUBLEVEL, { keyEncoding: LATIN1, valueEncoding: 'view' })
      // A rebuild starts from an empty directory and is the log's only writer (MerkleLogInit.fresh).
      return new JournalState(db, await openMerkleLog({ store: journalNodeStore(db, nodes), hasher: nativeMerkleHasher, leafCodec: RECORD_LEAF_CODEC, fresh: bulk }))
    } catch (err) {
      await db.close().catch(() => undefined)
      throw asIndexError(err, location)
    }
  }

  async close (): Promise<void> {
    await this.db.close()
  }

  /** The event ledger's idempotency across restarts (spec §8), backed by this LevelDB. */
  idempotency (): IdempotencyIndex {
    return {
      lookup: async (keys) => {
        const ids = await this.keys.getMany([...keys])
        const found = new Map<string, string>()
        keys.forEach((key, i) => { const id = ids[i] ?? this.deferred.get(key); if (id !== undefined) found.set(key, id) })
        return found
      },
      record: async (events: readonly LedgerEvent[]) => { await this.recordKeys(events) }
    }
  }

  /** Remembers that these logical events are stored (idempotency key → event id). */
  async recordKeys (events: ReadonlyArray<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>>): Promise<void> {
    if (events.length === 0) return
    const batch = new WriteBatch()
    for (const e of events) batch.put(this.keys, e.idempotency_key, e.event_id)
    await batch.commit(this.db)
  }

  async indexedLc (): Promise<number> {
    return Number(await this.meta.get(INDEXED_LC) ?? '0')
  }

  /**
   * Keys of durable events to be written with the next setIndexedLc, in its batch; lookups see them
   * at once. The caller must keep indexed_lc below these events until it hands them over here, so
   * the keys of every event up to indexed_lc are in the index whenever indexed_lc is (after a
   * crash, the journal's replay records the keys of the events beyond it).
   */
  deferKeys (events: ReadonlyArray<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>>): void {
    for (const e of events) this.deferred.set(e.idempotency_key, e.event_id)
  }

  /**
   * Written only after the index holds everything up to `lc`, so it never runs ahead; in the same
   * batch as the keys deferred so far.
   */
  async setIndexedLc (lc: number): Promise<void> {
    const keys = [...this.deferred]
    const batch = new WriteBatch()
    for (const [key, id] of keys) batch.put(this.keys, key, id)
    batch.put(this.meta, INDEXED_LC, String(lc))
    await batch.commit(this.db)
    // Only now: a lookup racing the batch still finds them here. A key deferred again meanwhile stays.
    for (const [key, id] of keys) if (this.deferred.get(key) === id) this.deferred.delete(key)
  }

  async latestCheckpoint (): Promise<SignedCheckpoint | null> {
    const text = await this.meta.get(LATEST_CHECKPOINT)
    return text === undefined ? null : JSON.parse(text) as SignedCheckpoint
  }

  async setLatestCheckpoint (checkpoint: SignedCheckpoint): Promise<void> {
    await this.meta.put(LATEST_CHECKPOINT, JSON.stringify(checkpoint))
  }

  /** The checkpoint already seen for this log at this size, if any (equivocation detection). */
  async observedCheckpoint (log: string, size: number): Promise<SignedCheckpoint | null> {
    const text = await this.checkpoints.get(`${log}\0${String(size).padStart(16, '0')}`)
    return text === undefined ? null : JSON.parse(text) as SignedCheckpoint
  }

  async observeCheckpoint (checkpoint: SignedCheckpoint): Promise<void> {
    const { log, size } = checkpoint.record
    await this.checkpoints.put(`${log}\0${String(size).padStart(16, '0')}`, JSON.stringify(checkpoint))
  }
}

/**
 * The Merkle log's node store over the journal's `merkle` sublevel: reads through it, writes as one
 * WriteBatch through the root (every store call writes a Merkle batch; the chained form costs about
 * half as much on this thread: 1.7–2.0 against 3.1–3.5 µs per leaf).
 */
function journalNodeStore (db: Level<string, string>, nodes: LevelNodeDb & { readonly prefix: string }): MerkleNodeStore {
  return {
    get: async (key) => await nodes.get(key),
    getMany: async (keys) => await nodes.getMany(keys),
    batch: async (puts) => {
      const batch = new WriteBatch()
      const target = { prefix: nodes.prefix, binary: true }
      for (const { key, value } of puts) batch.put(target, key, value)
      await batch.commit(db)
    }
  }
}
