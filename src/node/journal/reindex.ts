import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { openEventLedger } from '../../ledger/index.js'
import { SignedCheckpointSchema, type SignedCheckpoint } from '../../merkle/index.js'
import type { AnchorRecord, AttestationRecord, LedgerEvent, MemoryRecord } from '../../schema/index.js'
import { createLevelRecordStore, type RecordStore, type StoredRecord, type TrustEntry } from '../../store/index.js'
import { evidenceOf, scoreEvidence, trustEntryOf } from '../evidence.js'
import type { NodePaths } from '../paths.js'
import { JournalState } from './journal-state.js'
import { recordOfEvent } from './record-events.js'

/** @default 1000 — records per LevelDB batch while rebuilding. */
export const REINDEX_BATCH = 1000

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

async function rebuild (events: AsyncIterable<LedgerEvent>, store: RecordStore, state: JournalState, now: number): Promise<Omit<ReindexResult, 'ms'>> {
  const collected: Collected = { memories: new Map(), attestations: new Map(), anchors: new Map() }
  const idempotency = state.idempotency()
  let batch: StoredRecord[] = []
  let keys: LedgerEvent[] = []
  let count = 0
  let records = 0
  let lastLc = 0
  let latest: SignedCheckpoint | null = null
  const flush = async (): Promise<void> => {
    // The store and the Merkle log are separate LevelDBs: written at the same time.
    await Promise.all([store.putMany(batch), state.appendRecords(batch.map((r) => r.id)), idempotency.record?.(keys)])
    batch = []
    keys = []
  }
  for await (const event of events) {
    count++
    lastLc = event.lc
    keys.push(event)
    const record = recordOfEvent(event)
    if (record !== null) {
      records++
      batch.push(record)
      collect(collected, record)
    } else if (event.type === 'memory.checkpointed') {
      const checkpoint = SignedCheckpointSchema.safeParse(event.payload.checkpoint)
      if (checkpoint.success) {
        latest = checkpoint.data as SignedCheckpoint
        await state.observeCheckpoint(latest)
      }
    }
    if (batch.length >= REINDEX_BATCH || keys.length >= REINDEX_BATCH * 4) await flush()
  }
  await flush()
  if (latest !== null) await state.setLatestCheckpoint(latest)
  await writeTrust(store, collected, now)
  return { events: count, records, memories: collected.memories.size, lastLc }
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
async function writeTrust (store: RecordStore, collected: Collected, now: number): Promise<void> {
  let trust = new Map<string, TrustEntry>()
  for (const memory of collected.memories.values()) {
    const evidence = evidenceOf(memory, collected.attestations.get(memory.id) ?? [], collected.anchors.get(memory.id) ?? [])
    trust.set(memory.id, trustEntryOf(scoreEvidence(evidence, now)))
    if (trust.size >= REINDEX_BATCH) {
      await store.putMany([], trust)
      trust = new Map()
    }
  }
  if (trust.size > 0) await store.putMany([], trust)
}
