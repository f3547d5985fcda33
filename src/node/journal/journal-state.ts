import { Level } from 'level'
import { IsnadError } from '../../errors/index.js'
import type { IdempotencyIndex } from '../../ledger/index.js'
import { leafDataOfCid, openMerkleLog, type LevelNodeDb, type MerkleLog, type MerkleNodeStore, type SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent, WitnessRequestRecord } from '../../schema/index.js'
import { asIndexError, BULK_WRITE_BUFFER_BYTES, indexCorruptError, isLevelCorruption, WriteBatch, type StoredRecord } from '../../store/index.js'
import { nativeMerkleHasher } from './merkle-hasher.js'

const INDEXED_LC = 'indexed_lc'

/** Log positions as fixed-width keys, so LevelDB's order is numeric order. */
function leafKey (index: number): string {
  return String(index).padStart(16, '0')
}
const LATEST_CHECKPOINT = 'checkpoint'

/** Leaves split into runs of consecutive positions, each at most LEAF_RUN long. */
function consecutiveRuns<T extends { index: number }> (leaves: readonly T[]): T[][] {
  const runs: T[][] = []
  for (const leaf of leaves) {
    const run = runs[runs.length - 1]
    const previous = run?.[run.length - 1]
    if (run !== undefined && previous !== undefined && leaf.index === previous.index + 1 && run.length < LEAF_RUN) run.push(leaf)
    else runs.push([leaf])
  }
  return runs
}

/** Whether leaves are in non-decreasing position order (then a stable sort by position keeps them as they are). */
function inPositionOrder (leaves: ReadonlyArray<{ index: number }>): boolean {
  for (let i = 1; i < leaves.length; i++) if ((leaves[i - 1] as { index: number }).index > (leaves[i] as { index: number }).index) return false
  return true
}

/** @default 1024 — record ids (about 60 bytes each) in one entry of the `leaves` sublevel. */
const LEAF_RUN = 1024
/** Record ids are base32 CIDs: a newline never occurs in one. */
const RUN_SEP = '\n'

/**
 * The journal's derived state in its own LevelDB (`.memory/index/journal/`), rebuilt by reindex
 * from the ledgers alone: idempotency keys of every event, the Merkle log's subtree hashes, how far
 * the index has applied the ledger (`indexed_lc`), and the checkpoints seen per log.
 */
export class JournalState {
  readonly merkle: MerkleLog
  private readonly db: Level<string, string>
  private readonly keys
  private readonly meta
  private readonly checkpoints
  private readonly leaves
  private readonly requests
  /** Idempotency keys waiting for the next setIndexedLc (deferKeys). */
  private readonly deferred = new Map<string, string>()
  /** Log positions below this have their record id in `leaves` (or in a batch being written now). */
  private leafCoverage = 0

  private constructor (db: Level<string, string>, merkle: MerkleLog) {
    this.db = db
    this.merkle = merkle
    this.keys = db.sublevel<string, string>('keys', { valueEncoding: 'utf8' })
    this.meta = db.sublevel<string, string>('meta', { valueEncoding: 'utf8' })
    this.checkpoints = db.sublevel<string, string>('checkpoints', { valueEncoding: 'utf8' })
    this.leaves = db.sublevel<string, string>('leaves', { valueEncoding: 'utf8' })
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
   * What a store call (or a chunk of a rebuild) adds to this LevelDB once its records are indexed,
   * in one batch after the Merkle append: the new leaves' positions, so peers can sync "every record
   * after position n" in this node's log order (sync-v1); the witness requests among the records,
   * for the inbox (DESIGN §3); and the idempotency keys of their events (the journal defers those
   * here from the ledger append, so a store call makes one write instead of three; see
   * Journal.journaled for why that is safe). The leaves of one append are consecutive positions,
   * kept as runs of up to LEAF_RUN ids in one entry each (key: the run's first position): a rebuild
   * writes 4000 leaves in a few entries instead of one each.
   */
  async applyRecords (ids: readonly string[], { requests = [], events = [] }: {
    requests?: ReadonlyArray<StoredRecord<WitnessRequestRecord>>
    events?: ReadonlyArray<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>>
  } = {}): Promise<void> {
    const runs = ids.length > 0 ? await this.appendLeaves(ids) : []
    const batch = new WriteBatch()
    for (const run of runs) batch.put(this.leaves, leafKey((run[0] as { index: number }).index), run.map((leaf) => leaf.id).join(RUN_SEP))
    for (const r of requests) batch.put(this.requests, r.id, JSON.stringify(r.signed.record))
    for (const e of events) batch.put(this.keys, e.idempotency_key, e.event_id)
    await batch.commit(this.db)
  }

  /**
   * Appends the records' leaves to the Merkle log; returns the positions applyRecords writes, as runs.
   * The Merkle append and that batch are two writes: after a crash between them the log holds
   * leaves whose positions were never written. Replay appends those records again (they come back
   * as already in the log), and their positions are written then: any leaf at or beyond the
   * coverage, new or not. Coverage moves before the batch's await, so a concurrent call never
   * writes a position twice.
   */
  private async appendLeaves (ids: readonly string[]): Promise<Array<Array<{ index: number, id: string }>>> {
    const results = await this.merkle.append(ids.map((id) => leafDataOfCid(id)))
    const uncovered: Array<{ index: number, id: string }> = []
    results.forEach((r, i) => { if (r.index >= this.leafCoverage) uncovered.push({ index: r.index, id: ids[i] ?? '' }) })
    // New leaves come back in order: sort (stably, by position) only when some known leaf is out of it.
    if (!inPositionOrder(uncovered)) uncovered.sort((a, b) => a.index - b.index)
    const last = uncovered[uncovered.length - 1]
    if (last !== undefined) this.leafCoverage = Math.max(this.leafCoverage, last.index + 1)
    return consecutiveRuns(uncovered)
  }

  /**
   * Record ids at log positions ≥ `cursor`, at most `limit`, and the cursor after them: from the run
   * holding `cursor` (the last key ≤ it) onwards. An index written one id per key reads the same.
   */
  async recordsSince (cursor: number, limit: number): Promise<{ ids: string[], next: number }> {
    const ids: string[] = []
    if (limit <= 0) return { ids, next: cursor }
    const [first] = await this.leaves.keys({ lte: leafKey(cursor), reverse: true, limit: 1 }).all()
    for await (const [key, value] of this.leaves.iterator({ gte: first ?? leafKey(cursor) })) {
      const start = Number(key)
      const run = value.split(RUN_SEP)
      for (let i = Math.max(0, cursor - start); i < run.length && ids.length < limit; i++) ids.push(run[i] as string)
      if (ids.length >= limit) break
    }
    return { ids, next: cursor + ids.length }
  }

  /** `bulk`: a rebuild into an empty directory, with LevelDB's larger write buffer (see LevelRecordStoreInit.bulk). */
  static async open (location: string, { bulk = false }: { bulk?: boolean } = {}): Promise<JournalState> {
    const db = new Level<string, string>(location, { valueEncoding: 'utf8', ...(bulk ? { writeBufferSize: BULK_WRITE_BUFFER_BYTES } : {}) })
    try {
      await db.open()
    } catch (cause) {
      if (isLevelCorruption(cause)) throw indexCorruptError(location, cause)
      if ((cause as { cause?: { code?: unknown } }).cause?.code !== 'LEVEL_LOCKED') {
        throw new IsnadError('IO_ERROR', `cannot open the journal state at ${location}`, { cause, details: { location } })
      }
      throw new IsnadError('STORE_LOCKED', 'the data directory is in use by another isnad process (a running daemon?)', { cause })
    }
    try {
      const nodes = db.sublevel<string, Uint8Array>('merkle', { valueEncoding: 'view' })
      // A rebuild starts from an empty directory and is the log's only writer (MerkleLogInit.fresh).
      const state = new JournalState(db, await openMerkleLog({ store: journalNodeStore(db, nodes), hasher: nativeMerkleHasher, fresh: bulk }))
      const [lastRun] = await state.leaves.iterator({ reverse: true, limit: 1 }).all()
      if (lastRun !== undefined) state.leafCoverage = Number(lastRun[0]) + lastRun[1].split(RUN_SEP).length
      return state
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
      for (const { key, value } of puts) batch.put(nodes, key, value)
      await batch.commit(db)
    }
  }
}
