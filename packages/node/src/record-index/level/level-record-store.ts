import { join } from 'node:path'
import { Level } from 'level'
import { asIndexError, indexCorruptError, isLevelCorruption } from './damage.js'
import { diskFullError, isDiskFull, IsnadError } from '../../errors/index.js'
import { RECORD_KINDS, type IsnadRecord, type MemoryRecord, type RecordKind, type MemoryQuery, type QueryPage, type RecordLocation, type RecordStore, type StoredRecord, type TrustEntry } from '../../schema/index.js'
import { BULK_WRITE_BUFFER_BYTES, GET_MANY_CHUNK, INDEX_DIRECTORY } from '../constants.js'
import type { Link } from '../prepare.js'
import { assertTrustEntry, decodeStoredRecord, linksOf, prepareRecords } from '../prepare.js'
import { normalizeQuery } from '../query-plan.js'
import { SerialQueue } from '../serial-queue.js'
import { idKey, idKeyOf, idOfKey, lookupKey, prefixEnd } from './binary-keys.js'
import { LINK_FROM_BYTES, kindStatKey, linkedIdOf, linkFromOf, linkPrefix, linkRange } from './key-layout.js'
import { checkIndexFormat } from './format.js'
import { decodeMemoryEntry } from './memory-entry.js'
import { scanQuery } from './query-planner.js'
import { IndexCache } from './index-cache.js'
import { sublevelsOf, WriteBatch, type RootLevel, type Sublevels } from './sublevels.js'
import { loadEntries, planPutMany, pushRetrustOps, type WritePlan } from './write-plan.js'
import { LinkedRecordReads } from '../linked-reads.js'
import { RecordValues } from './record-values.js'
import { ScopeNames } from './scope-names.js'

export interface LevelRecordStoreInit {
  /** The LevelDB directory: `<data dir>/.memory/index` (see indexLocationOf). Created if missing. */
  location: string
  /**
   * A bulk load (reindex): LevelDB gets a larger write buffer (BULK_WRITE_BUFFER_BYTES). Durability
   * is the same — writes are never synced by the store; the ledger is the source of truth.
   */
  bulk?: boolean
  /**
   * The `.memory/` directory whose ledger the index locates records in (record-location.ts): given,
   * records put with a location are kept as that location and read from the ledger's packs; absent
   * (a store with no ledger beside it: tests, benchmarks), every record is kept as its bytes.
   */
  dataDir?: string
}

const LOCKED_MESSAGE = 'the data directory is in use by another isnad process (a running daemon?)'

/** The node's RecordStore: LevelDB indexes that can always be rebuilt from the ledgers (docs/architecture.md, "The data directory"). */
export class LevelRecordStore extends LinkedRecordReads implements RecordStore {
  private readonly location: string
  private readonly bulk: boolean
  /** Present while open. A Level handle opens itself when constructed, so none exists before open(). */
  private handle: { db: RootLevel, subs: Sublevels } | null = null
  private readonly writes = new SerialQueue()
  /** Entries and counters the write queue wrote or read: valid while this handle is open. */
  private readonly cache = new IndexCache()
  /** The `orphans` sublevel's keys (key-layout.ts), read at open and kept by the write queue. */
  private readonly orphans = new Set<string>()
  /**
   * The memories that have a successor (the `successors` link), read at open and added to by the
   * write queue, so supersededBy answers [] for every other memory without opening an iterator
   * (20–50 µs of this thread each, and the view reducer asks for every memory it reduces).
   * Corrections are few, so the set stays small. It may hold more than LevelDB (a batch that failed
   * to commit), never less: an extra member only costs the iterator it would have saved.
   */
  private readonly superseded = new Set<string>()
  // (Held as the `from` part of the successor links: a memory id's key cut to LINK_FROM_BYTES.)
  /** The records' values: locations in the ledger (or bytes) and the reads that serve them. */
  private readonly values: RecordValues
  /** The numbers of the query scopes (scope-names.ts), read at open and added to by the write queue. */
  private readonly names = new ScopeNames()
  private state: 'new' | 'open' | 'closed' = 'new'
  /** A close still releasing the lock: a reopen waits for it rather than failing with STORE_LOCKED. */
  private closing: Promise<void> = Promise.resolve()

  constructor (init: LevelRecordStoreInit) {
    super()
    this.location = init.location
    this.bulk = init.bulk === true
    this.values = new RecordValues(init.dataDir)
  }

  async open (): Promise<void> {
    if (this.state === 'open') return
    await this.closing
    // A fresh handle on every open: after a failed open (a held lock) abstract-level leaves the old
    // handle's sublevels unusable, and a retry once the lock is released must work.
    const db = new Level<string, string>(this.location, {
      keyEncoding: 'utf8', valueEncoding: 'utf8', ...(this.bulk ? { writeBufferSize: BULK_WRITE_BUFFER_BYTES } : {})
    })
    try {
      await db.open()
    } catch (err) {
      throw openError(this.location, err)
    }
    const subs = sublevelsOf(db)
    this.orphans.clear()
    this.superseded.clear()
    try {
      await checkIndexFormat(db, subs, this.location)
      // Both sets from one scan each: few memories have orphan evidence or a successor.
      const [orphans, successors] = await Promise.all([subs.orphans.keys().all(), subs.links.keys(linkRange('successors')).all()])
      for (const key of orphans) this.orphans.add(idOfKey(key))
      for (const key of successors) this.superseded.add(linkFromOf('successors', key))
      await this.values.load(subs, this.location)
      await this.names.load(subs, this.location)
    } catch (err) {
      await db.close().catch(() => undefined)
      throw asIndexError(err, this.location)
    }
    this.cache.clear()
    this.handle = { db, subs }
    this.state = 'open'
  }

  async close (): Promise<void> {
    if (this.state !== 'open') return
    this.state = 'closed'
    const released = this.release()
    this.closing = released.catch(() => undefined)
    await released
  }

  /** Writes already queued finish first: an accepted putMany is never cut off by close. */
  private async release (): Promise<void> {
    await this.writes.drain()
    await this.values.close()
    await this.handle?.db.close()
    this.handle = null
  }

  async putMany (records: StoredRecord[], trust: ReadonlyMap<string, TrustEntry> = new Map(), locations?: ReadonlyMap<string, RecordLocation>): Promise<string[]> {
    this.assertOpen()
    const prepared = prepareRecords(records)
    return await this.writes.run(async () => {
      const { db, subs } = this.writeHandle()
      // File and scope numbers a refused plan claimed are forgotten.
      this.values.settle(false)
      this.names.settle(false)
      const plan = await planPutMany(subs, this.cache, this.names, prepared, trust, this.orphans, {
        name: (batch) => { this.values.name(locations, batch) },
        valueOf: (record, batch) => this.values.valueOf(record, locations?.get(record.id), batch)
      })
      // Before the commit, so no reader can see a successor link the set lacks.
      for (const { signed: { record } } of prepared) {
        if (record.kind === 'memory' && record.lineage.supersedes !== undefined) this.superseded.add(idKey(record.lineage.supersedes).slice(0, LINK_FROM_BYTES))
      }
      await this.commit(db, plan)
      for (const id of plan.orphansAdded) this.orphans.add(id)
      for (const id of plan.orphansCleared) this.orphans.delete(id)
      return plan.newIds
    })
  }

  async get (id: string): Promise<StoredRecord | null> {
    const [bytes] = await this.getBytesMany([id])
    return bytes === undefined ? null : { id, signed: decodeStoredRecord(id, bytes) }
  }

  async getMemory (id: string): Promise<StoredRecord<MemoryRecord> | null> {
    const stored = await this.get(id)
    return stored !== null && stored.signed.record.kind === 'memory' ? stored as StoredRecord<MemoryRecord> : null
  }

  async exists (id: string): Promise<boolean> {
    return await this.assertOpen().subs.records.has(lookupKey(id))
  }

  async existsMany (ids: readonly string[]): Promise<boolean[]> {
    const { records } = this.assertOpen().subs
    return ids.length === 0 ? [] : await records.hasMany(ids.map(lookupKey))
  }

  /**
   * In reads of GET_MANY_CHUNK ids, so a long list never becomes one huge native call; each record's
   * bytes from where the index locates them (RecordValues), hashed against its id.
   */
  async getBytesMany (ids: readonly string[]): Promise<Array<Uint8Array | undefined>> {
    const { records } = this.assertOpen().subs
    const out: Array<Uint8Array | undefined> = []
    for (let start = 0; start < ids.length; start += GET_MANY_CHUNK) {
      const chunk = ids.slice(start, start + GET_MANY_CHUNK)
      out.push(...await this.values.bytesOf(chunk, await records.getMany(chunk.map(lookupKey)), this.location))
    }
    return out
  }

  /**
   * From the write queue's counters once it knows them all (ingest asks before every batch); the
   * first call reads them inside the queue, so no write can land between the read and the cache.
   */
  async count (): Promise<Record<RecordKind, number>> {
    this.assertOpen()
    const keys = RECORD_KINDS.map(kindStatKey)
    let values = keys.map((key) => this.cache.counter(key))
    if (values.some((value) => value === undefined)) {
      values = await this.writes.run(async () => {
        const read = await this.writeHandle().subs.stats.getMany(keys)
        const counters = new Map(keys.map((key, i) => [key, this.cache.counter(key) ?? Number(read[i] ?? '0')]))
        this.cache.remember(new Map(), counters)
        return [...counters.values()]
      })
    }
    return Object.fromEntries(RECORD_KINDS.map((kind, i) => [kind, values[i] ?? 0])) as Record<RecordKind, number>
  }

  async supersededBy (memoryId: string): Promise<string[]> {
    this.assertOpen()
    const key = idKeyOf(memoryId)
    if (key === undefined || !this.superseded.has(key.slice(0, LINK_FROM_BYTES))) return []
    return (await this.linkedRecords('successors', memoryId)).map((stored) => stored.id)
  }

  async hasOrphanEvidence (memoryId: string): Promise<boolean> {
    this.assertOpen()
    return this.orphans.has(memoryId)
  }

  async setTrust (memoryId: string, trust: TrustEntry): Promise<void> {
    this.assertOpen()
    assertTrustEntry(memoryId, trust)
    await this.writes.run(async () => {
      const { db, subs } = this.writeHandle()
      this.names.settle(false)
      const [entry] = await loadEntries(subs, this.cache, this.names, [memoryId])
      const plan: WritePlan = { batch: new WriteBatch(), names: this.names, entries: new Map(), counters: new Map() }
      pushRetrustOps(plan, memoryId, entry as NonNullable<typeof entry>, trust)
      await this.commit(db, plan)
    })
  }

  /** Writes a plan's batch, then tells the cache what it wrote; a failed write empties the cache. */
  private async commit (db: RootLevel, plan: WritePlan): Promise<void> {
    try {
      await plan.batch.commit(db)
    } catch (err) {
      this.cache.clear()
      this.values.settle(false)
      this.names.settle(false)
      throw err
    }
    this.values.settle(true)
    this.names.settle(true)
    this.cache.remember(plan.entries, plan.counters)
  }

  async getTrust (memoryId: string): Promise<TrustEntry | null> {
    const value = await this.assertOpen().subs.memories.get(lookupKey(memoryId))
    return value === undefined ? null : decodeMemoryEntry(memoryId, value, (n) => this.names.nameOf(n)).trust ?? null
  }

  async query (query: MemoryQuery): Promise<QueryPage> {
    return await scanQuery(this.assertOpen().subs, this.names, normalizeQuery(query))
  }

  /**
   * Ids in one relation, in id order: the key suffix after `<link> <from>`. With `from` cut to
   * LINK_FROM_BYTES, these are the records linked to any memory whose id's key starts so: the
   * records read (linkedRecords) are filtered by their own `from`.
   */
  private async linkedIds (link: Link, from: string): Promise<string[]> {
    const { links } = this.assertOpen().subs
    const fromKey = idKeyOf(from)
    if (fromKey === undefined) return []
    const prefix = linkPrefix(link, fromKey)
    const keys = await links.keys({ gte: prefix, lt: prefixEnd(prefix) }).all()
    return keys.map(linkedIdOf)
  }

  protected async linkedRecords (link: Link, from: string): Promise<StoredRecord[]> {
    const ids = await this.linkedIds(link, from)
    const values = await this.getBytesMany(ids)
    const out: StoredRecord[] = []
    ids.forEach((id, i) => {
      const bytes = values[i]
      if (bytes === undefined) return
      const signed = decodeStoredRecord(id, bytes)
      if (linksFrom(signed.record, link) === from) out.push({ id, signed })
    })
    return out
  }

  /**
   * For a write already queued: close() refuses new calls at once but keeps the handle until the
   * queue drains, so only the state is checked at call time and the handle here.
   */
  private writeHandle (): { db: RootLevel, subs: Sublevels } {
    if (this.handle !== null) return this.handle
    throw new IsnadError('STORE_CLOSED', `the record store at ${this.location} is closed`)
  }

  private assertOpen (): { db: RootLevel, subs: Sublevels } {
    if (this.state === 'open' && this.handle !== null) return this.handle
    throw new IsnadError('STORE_CLOSED', `the record store at ${this.location} is ${this.state === 'new' ? 'not open yet' : 'closed'}`)
  }
}

/** classic-level reports a held lock as LEVEL_DATABASE_NOT_OPEN caused by LEVEL_LOCKED. */
function openError (location: string, err: unknown): IsnadError {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause
  if (cause?.code === 'LEVEL_LOCKED') {
    return new IsnadError('STORE_LOCKED', `${LOCKED_MESSAGE}: ${location} is locked`, { cause: err, details: { location } })
  }
  if (isLevelCorruption(err)) return indexCorruptError(location, err)
  if (isDiskFull(err)) return diskFullError(`the record store at ${location}`, err, { location })
  return new IsnadError('IO_ERROR', `cannot open the record store at ${location}`, { cause: err, details: { location } })
}

/** The record a stored record links from by `link` (its memory, the memory it supersedes), if any. */
function linksFrom (record: IsnadRecord, link: Link): string | undefined {
  return linksOf(record).find((l) => l.link === link)?.from
}

/** Where a data directory keeps its LevelDB indexes (docs/architecture.md): `<dataDir>/.memory/index`. */
export function indexLocationOf (dataDir: string): string {
  return join(dataDir, ...INDEX_DIRECTORY.split('/'))
}

/** A RecordStore over LevelDB at `init.location`; call `open()` before use. */
export function createLevelRecordStore (init: LevelRecordStoreInit): RecordStore {
  return new LevelRecordStore(init)
}
