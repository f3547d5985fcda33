import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { openEventLedger } from '../../ledger/index.js'
import { SignedCheckpointSchema, type SignedCheckpoint } from '../../merkle/index.js'
import type { AnchorRecord, AttestationRecord, LedgerEvent, MemoryRecord } from '../../schema/index.js'
import { createLevelRecordStore, type RecordStore, type StoredRecord, type TrustEntry } from '../../store/index.js'
import { evidenceOf, scoreEvidence, trustEntryOf } from '../evidence.js'
import type { NodePaths } from '../paths.js'
import { JournalState } from './journal-state.js'
import { witnessRequestsIn } from './journal.js'
import { recordOfEvent } from './record-events.js'

/** @default 4000 — events (records, idempotency keys) per LevelDB batch while rebuilding. */
export const REINDEX_BATCH = 4000
/** @default 2 — batches being written while the next is read: LevelDB's threads and this one overlap. */
export const WRITES_IN_FLIGHT = 2

export interface ReindexResult {
  events: number
  records: number
  memories: number
  lastLc: number
  ms: number
}

/**
 * Rebuilds `.memory/index/` from the ledgers alone (DESIGN §4). The new index is built beside the
 * old one while holding the single-writer lock, then swapped in, so a failure leaves the old index.
 * Records are not re-verified: they entered the ledger only after verification, and every line's
 * hash is checked as it is read; `isnad ledger verify` checks signatures and checkpoints.
 */
export async function reindexHome (paths: NodePaths, scope: string, clock: () => number): Promise<ReindexResult> {
  const started = clock()
  const fresh = `${paths.index}.rebuild`
  await rm(fresh, { recursive: true, force: true })
  await assertIndexFree(paths)
  const state = await JournalState.open(join(fresh, 'journal'), { bulk: true })
  const store = createLevelRecordStore({ location: join(fresh, 'records'), bulk: true })
  await store.open()
  const ledger = await openEventLedger({ dataDir: paths.data, scope, clock, idempotency: state.idempotency() }).catch(async (err: unknown) => {
    await Promise.all([store.close(), state.close()])
    throw err
  })
  let result: Omit<ReindexResult, 'ms'>
  try {
    result = await rebuild(ledger.readEvents(), store, state, clock())
    await state.setIndexedLc(ledger.lastLc)
  } catch (err) {
    await Promise.all([store.close(), state.close(), ledger.close()])
    await rm(fresh, { recursive: true, force: true })
    throw err
  }
  await Promise.all([store.close(), state.close()])
  try {
    // Swapped while the writer lock is held: no writer can open the index in between.
    const old = `${paths.index}.old`
    await rm(old, { recursive: true, force: true })
    await rename(paths.index, old)
    await rename(fresh, paths.index)
    await rm(old, { recursive: true, force: true })
  } finally {
    await ledger.close()
  }
  return { ...result, ms: clock() - started }
}

/**
 * A reader (or a writer) holding the LevelDB lock must not see its directory swapped away. An index
 * of an older layout (INDEX_OUTDATED) was opened, so its lock was free: it is what reindex replaces.
 */
async function assertIndexFree (paths: NodePaths): Promise<void> {
  const location = join(paths.index, 'records')
  if (!await exists(location)) return
  const probe = createLevelRecordStore({ location })
  try {
    await probe.open()
  } catch (err) {
    if (err instanceof IsnadError && err.code === 'INDEX_OUTDATED') return
    throw err
  }
  await probe.close()
}

async function exists (path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false)
}

interface Collected {
  memories: Map<string, StoredRecord<MemoryRecord>>
  attestations: Map<string, Array<StoredRecord<AttestationRecord>>>
  anchors: Map<string, Array<StoredRecord<AnchorRecord>>>
}

/**
 * Two passes over what is read. While the ledger is read, everything that does not depend on trust
 * is written as it comes, REINDEX_BATCH events at a time with WRITES_IN_FLIGHT batches in flight, so
 * LevelDB writes (on its own threads) overlap the reading and hash-checking (on this one): the
 * Merkle log in ledger order, idempotency keys, witness requests, and every record except memories
 * (attestations, anchors, requests and their links carry no score). Then every memory is scored from
 * the evidence collected (no store reads) and written once with its final trust, so no query-index
 * key is written twice.
 */
async function rebuild (events: AsyncIterable<LedgerEvent>, store: RecordStore, state: JournalState, now: number): Promise<Omit<ReindexResult, 'ms'>> {
  const collected: Collected = { memories: new Map(), attestations: new Map(), anchors: new Map() }
  const writes = new WriteWindow(WRITES_IN_FLIGHT)
  let records = 0
  let eventCount = 0
  let lastLc = 0
  let latest: SignedCheckpoint | null = null
  let ids: string[] = []
  let evidence: StoredRecord[] = []
  let keys: Array<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>> = []
  const flush = async (): Promise<void> => {
    const [batchIds, batchEvidence, batchKeys] = [ids, evidence, keys]
    ids = []
    evidence = []
    keys = []
    await writes.add(Promise.all([
      state.appendRecords(batchIds),
      state.recordKeys(batchKeys),
      state.addRequests(witnessRequestsIn(batchEvidence)),
      store.putMany(batchEvidence)
    ]))
  }
  try {
    for await (const event of events) {
      lastLc = event.lc
      eventCount++
      keys.push({ idempotency_key: event.idempotency_key, event_id: event.event_id })
      const record = recordOfEvent(event)
      if (record !== null) {
        records++
        ids.push(record.id)
        if (record.signed.record.kind !== 'memory') evidence.push(record)
        collect(collected, record)
      } else if (event.type === 'memory.checkpointed') {
        const checkpoint = SignedCheckpointSchema.safeParse(event.payload.checkpoint)
        if (checkpoint.success) {
          latest = checkpoint.data as SignedCheckpoint
          await state.observeCheckpoint(latest)
        }
      }
      if (keys.length >= REINDEX_BATCH) await flush()
    }
    await flush()
    // Scored batch by batch, so LevelDB writes one batch while the next is scored.
    const memories = [...collected.memories.values()]
    for (let at = 0; at < memories.length; at += REINDEX_BATCH) {
      const batch = memories.slice(at, at + REINDEX_BATCH)
      await writes.add(store.putMany(batch, scoreAll(batch, collected, now)))
    }
    await writes.drain()
  } catch (err) {
    // Nothing may still be writing when the caller closes the stores and removes the directory.
    await writes.drain().catch(() => undefined)
    throw err
  }
  if (latest !== null) await state.setLatestCheckpoint(latest)
  return { events: eventCount, records, memories: collected.memories.size, lastLc }
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

/** Keeps the record itself (recordOfEvent made it for this event alone): no copy per record. */
function collect (collected: Collected, stored: StoredRecord): void {
  const { record } = stored.signed
  if (record.kind === 'memory') collected.memories.set(stored.id, stored as StoredRecord<MemoryRecord>)
  else if (record.kind === 'attestation') push(collected.attestations, record.memory, stored as StoredRecord<AttestationRecord>)
  else if (record.kind === 'anchor') push(collected.anchors, record.memory, stored as StoredRecord<AnchorRecord>)
}

function push<T> (map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Trust of `memories`, from the evidence collected while reading: no store reads needed. */
function scoreAll (memories: ReadonlyArray<StoredRecord<MemoryRecord>>, collected: Collected, now: number): Map<string, TrustEntry> {
  const trust = new Map<string, TrustEntry>()
  for (const memory of memories) {
    const evidence = evidenceOf(memory, collected.attestations.get(memory.id) ?? [], collected.anchors.get(memory.id) ?? [])
    trust.set(memory.id, trustEntryOf(scoreEvidence(evidence, now)))
  }
  return trust
}
