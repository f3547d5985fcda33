import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { openEventLedger, snapshotScope } from '../../ledger/index.js'
import type { SignedCheckpoint } from '../../merkle/index.js'
import { createLevelRecordStore, type RecordStore } from '../../record-index/index.js'
import { homeTrustSpec } from '../trust/node-trust.js'
import type { NodePaths } from '../../home/index.js'
import { JournalState } from '../journal/journal-state.js'
import { witnessRequestsIn } from '../journal/journal.js'
import type { ReadChunk } from './reindex-chunks.js'
import { ReindexReader } from './reindex-reader.js'

/** @default 4000 — events (records, idempotency keys) per LevelDB batch while rebuilding. */
export const REINDEX_BATCH = 4000
/**
 * @default 1 — batches being written while the next is prepared: LevelDB's threads and this one
 * overlap. One is enough now that reading is done by another thread, and less data in flight makes
 * every young-generation collection of this thread cheaper (measured: less CPU and time than 2).
 */
export const WRITES_IN_FLIGHT = 1
/** @default 8 — chunks the reader thread may send ahead of the ones taken (each a few MB of JSON). */
export const READ_AHEAD = 8

export interface ReindexOptions {
  /** @default DEFAULT_SCOPE — the ledger scope the node writes. */
  scope?: string
  /**
   * The shard count the node's operator set (`isnad start --shard-count`, the `shard-count`
   * setting): memories are scored with it, as the daemon scores them (witness-draw-v1 W12).
   * @default from N̂ (shardCountFor)
   */
  shardCount?: number
}

export interface ReindexResult {
  events: number
  records: number
  memories: number
  lastLc: number
  ms: number
}

/**
 * Rebuilds `.memory/index/` from the ledgers alone (docs/architecture.md, "The data directory"). The new index is built beside the
 * old one while holding the single-writer lock, then swapped in, so a failure leaves the old index.
 * Records are not re-verified: they entered the ledger only after verification, and every line's
 * hash is checked as it is read; `isnad ledger verify` checks signatures and checkpoints.
 */
export async function reindexHome (paths: NodePaths, scope: string, clock: () => number, shardCount?: number): Promise<ReindexResult> {
  const started = clock()
  // Started first: the reader thread loads its modules while the stores open.
  const reader = ReindexReader.start()
  try {
    return { ...await rebuildIndex(paths, { scope, shardCount }, clock, reader), ms: clock() - started }
  } finally {
    await reader.stop()
  }
}

async function rebuildIndex (paths: NodePaths, { scope, shardCount }: { scope: string, shardCount: number | undefined }, clock: () => number, reader: ReindexReader): Promise<Omit<ReindexResult, 'ms'>> {
  const fresh = `${paths.index}.rebuild`
  await rm(fresh, { recursive: true, force: true })
  await assertIndexFree(paths)
  const state = await JournalState.open(join(fresh, 'journal'), { bulk: true })
  const store = createLevelRecordStore({ location: join(fresh, 'records'), bulk: true, dataDir: paths.data })
  await store.open()
  const ledger = await openEventLedger({ dataDir: paths.data, scope, clock, idempotency: state.idempotency() }).catch(async (err: unknown) => {
    await Promise.all([store.close(), state.close()])
    throw err
  })
  let result: Omit<ReindexResult, 'ms'>
  try {
    // The ledger is open only to hold its writer lock: nothing appends to it during the rebuild.
    const snapshot = await snapshotScope(paths.data, scope, () => undefined)
    // Scored as the node scores, not with the defaults: its policy, roots and keyring, and the shard count it was set to.
    const trust = { ...await homeTrustSpec(paths), ...(shardCount === undefined ? {} : { shardCount }) }
    result = await rebuild(reader.read({ snapshot, now: clock(), trust, batch: REINDEX_BATCH, window: READ_AHEAD }), store, state)
    await state.setIndexedLc(ledger.lastLc)
  } catch (err) {
    await Promise.all([store.close(), state.close(), ledger.close()])
    await rm(fresh, { recursive: true, force: true })
    throw err
  }
  await Promise.all([store.close(), state.close()])
  try {
    // Swapped while the writer lock is held: no writer can open the index in between.
    // The index is derived (docs/architecture.md, "The data directory"): whatever state the old one is in (damaged, half deleted,
    // missing), it is moved aside and removed, never read.
    const old = `${paths.index}.old`
    await rm(old, { recursive: true, force: true })
    if (await exists(paths.index)) await rename(paths.index, old)
    await rename(fresh, paths.index)
    await rm(old, { recursive: true, force: true })
  } finally {
    await ledger.close()
  }
  return result
}

/**
 * A reader (or a writer) holding a LevelDB lock must not see its directory swapped away: STORE_LOCKED.
 * Any other failure to open (INDEX_OUTDATED, INDEX_CORRUPT, a missing table, an unreadable file)
 * came after the lock was free, so the index is not in use: it is what reindex replaces (docs/threat-model.md, "Damage to the data directory").
 */
async function assertIndexFree (paths: NodePaths): Promise<void> {
  const records = join(paths.index, 'records')
  if (await exists(records)) {
    const probe = createLevelRecordStore({ location: records })
    if (await opened(probe.open())) await probe.close()
  }
  const journal = join(paths.index, 'journal')
  if (await exists(join(journal, 'CURRENT'))) {
    const state = JournalState.open(journal)
    if (await opened(state)) await (await state).close()
  }
}

/** Whether the open succeeded; false when it failed for any reason but a held lock. */
async function opened (open: Promise<unknown>): Promise<boolean> {
  try {
    await open
    return true
  } catch (err) {
    if (err instanceof IsnadError && err.code === 'STORE_LOCKED') throw err
    return false
  }
}

async function exists (path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false)
}

/**
 * Writes what the reader thread sends (ReindexReader: every line read and checked, every record
 * schema-checked, every memory scored, off this thread) while it reads on.
 * Events chunks are written as they come, REINDEX_BATCH events each with WRITES_IN_FLIGHT writes in
 * flight, so LevelDB's threads work too: the Merkle log in ledger order, idempotency keys, witness
 * requests, and every record except memories (attestations, anchors, requests and their links carry
 * no score). Then the memories come, scored from all the evidence, and each is written once with its
 * final trust, so no query-index key is written twice. The store encodes every record and checks its
 * id as it writes it.
 */
async function rebuild (chunks: AsyncIterable<ReadChunk>, store: RecordStore, state: JournalState): Promise<Omit<ReindexResult, 'ms'>> {
  const writes = new WriteWindow(WRITES_IN_FLIGHT)
  let records = 0
  let memories = 0
  let eventCount = 0
  let lastLc = 0
  let latest: SignedCheckpoint | null = null
  try {
    for await (const chunk of chunks) {
      if (chunk.kind === 'memories') {
        memories += chunk.records.length
        await writes.add(store.putMany(chunk.records, chunk.trust, chunk.locations))
        continue
      }
      eventCount += chunk.events
      lastLc = chunk.lastLc
      records += chunk.ids.length
      for (const checkpoint of chunk.checkpoints) {
        latest = checkpoint
        await state.observeCheckpoint(checkpoint)
      }
      await writes.add(Promise.all([
        state.applyRecords(chunk.ids, { requests: witnessRequestsIn(chunk.records), events: chunk.keys }),
        store.putMany(chunk.records, undefined, chunk.locations)
      ]))
    }
    await writes.drain()
  } catch (err) {
    // Nothing may still be writing when the caller closes the stores and removes the directory.
    await writes.drain().catch(() => undefined)
    throw err
  }
  if (latest !== null) await state.setLatestCheckpoint(latest)
  return { events: eventCount, records, memories, lastLc }
}

/**
 * At most `depth` writes in flight: adding one waits for the oldest beyond that. A failed write
 * rejects the add (or drain) that awaits it; the others are still awaited, never left unhandled.
 */
class WriteWindow {
  private readonly inFlight: Array<Promise<unknown>> = []

  constructor (private readonly depth: number) {}

  async add (write: Promise<unknown>): Promise<void> {
    write.catch(() => undefined)
    this.inFlight.push(write)
    if (this.inFlight.length > this.depth) await this.inFlight.shift()
  }

  async drain (): Promise<void> {
    const pending = this.inFlight.splice(0)
    const results = await Promise.allSettled(pending)
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed !== undefined) throw failed.reason
  }
}
