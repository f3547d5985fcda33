import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { openEventLedger } from '../../ledger/index.js'
import { SignedCheckpointSchema, type SignedCheckpoint } from '../../merkle/index.js'
import type { AnchorRecord, AttestationRecord, LedgerEvent, MemoryRecord } from '../../schema/index.js'
import { createLevelRecordStore, type RecordStore, type StoredRecord, type TrustEntry } from '../../store/index.js'
import { evidenceOf, scoreEvidence, trustEntryOf } from '../evidence.js'
import type { NodePaths } from '../paths.js'
import { JournalState } from './journal-state.js'
import { witnessRequestsIn } from './journal.js'
import { recordOfEvent } from './record-events.js'

/** @default 1000 — records (and events' idempotency keys) per LevelDB batch while rebuilding. */
export const REINDEX_BATCH = 4000

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
  const state = await JournalState.open(join(fresh, 'journal'))
  const store = createLevelRecordStore({ location: join(fresh, 'records') })
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

/** A reader (or a writer) holding the LevelDB lock must not see its directory swapped away. */
async function assertIndexFree (paths: NodePaths): Promise<void> {
  const location = join(paths.index, 'records')
  if (!await exists(location)) return
  const probe = createLevelRecordStore({ location })
  await probe.open()
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
 * Two passes: the first reads the ledger and scores every memory from the evidence it collected
 * (no store reads), the second writes each batch with its memories' final trust, so no index key is
 * written twice; the record store and the Merkle log (separate LevelDBs) are written concurrently.
 */
async function rebuild (events: AsyncIterable<LedgerEvent>, store: RecordStore, state: JournalState, now: number): Promise<Omit<ReindexResult, 'ms'>> {
  const collected: Collected = { memories: new Map(), attestations: new Map(), anchors: new Map() }
  const records: StoredRecord[] = []
  const keys: Array<Pick<LedgerEvent, 'idempotency_key' | 'event_id'>> = []
  let lastLc = 0
  let latest: SignedCheckpoint | null = null
  for await (const event of events) {
    lastLc = event.lc
    keys.push({ idempotency_key: event.idempotency_key, event_id: event.event_id })
    const record = recordOfEvent(event)
    if (record !== null) {
      records.push(record)
      collect(collected, record)
    } else if (event.type === 'memory.checkpointed') {
      const checkpoint = SignedCheckpointSchema.safeParse(event.payload.checkpoint)
      if (checkpoint.success) {
        latest = checkpoint.data as SignedCheckpoint
        await state.observeCheckpoint(latest)
      }
    }
  }
  const trust = scoreAll(collected, now)
  for (let at = 0; at < Math.max(records.length, keys.length); at += REINDEX_BATCH) {
    const batch = records.slice(at, at + REINDEX_BATCH)
    const batchTrust = new Map(batch.flatMap((r) => { const entry = trust.get(r.id); return entry === undefined ? [] : [[r.id, entry] as const] }))
    await Promise.all([
      store.putMany(batch, batchTrust),
      state.appendRecords(batch.map((r) => r.id)),
      state.recordKeys(keys.slice(at, at + REINDEX_BATCH)),
      state.addRequests(witnessRequestsIn(batch))
    ])
  }
  if (latest !== null) await state.setLatestCheckpoint(latest)
  return { events: keys.length, records: records.length, memories: collected.memories.size, lastLc }
}

function collect (collected: Collected, stored: StoredRecord): void {
  const { record, signature } = stored.signed
  if (record.kind === 'memory') {
    collected.memories.set(stored.id, { id: stored.id, signed: { record, signature } })
  } else if (record.kind === 'attestation') {
    push(collected.attestations, record.memory, { id: stored.id, signed: { record, signature } })
  } else if (record.kind === 'anchor') {
    push(collected.anchors, record.memory, { id: stored.id, signed: { record, signature } })
  }
}

function push<T> (map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Trust of every memory, from the evidence collected while reading: no store reads needed. */
function scoreAll (collected: Collected, now: number): Map<string, TrustEntry> {
  const trust = new Map<string, TrustEntry>()
  for (const memory of collected.memories.values()) {
    const evidence = evidenceOf(memory, collected.attestations.get(memory.id) ?? [], collected.anchors.get(memory.id) ?? [])
    trust.set(memory.id, trustEntryOf(scoreEvidence(evidence, now)))
  }
  return trust
}
