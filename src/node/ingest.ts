import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { verifyRecord, verifyRecordBytes, type VerifiedRecord } from '../record/index.js'
import type { AnchorRecord, AttestationRecord, MemoryRecord } from '../schema/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../store/index.js'
import { evidenceOf, gatherEvidence, scoreEvidence, trustEntryOf, type MemoryEvidence } from './evidence.js'

export interface IngestOptions {
  verifier: SignatureVerifier
  now: number
}

export interface IngestResult {
  /** Ids newly stored, in input order. */
  stored: string[]
  /** Ids that were already present. */
  duplicates: string[]
  /** Memories whose trust was recomputed. */
  rescored: string[]
}

/**
 * @default 64 — memories whose evidence is loaded at the same time while a batch is scored: enough
 * to keep LevelDB's thread pool busy while this thread decodes, few enough that a 4096-record
 * import does not open thousands of iterators at once.
 */
export const RESCORE_CONCURRENCY = 64

/** @default 4096 — memories whose evidence the node keeps between batches (EvidenceCache). */
export const EVIDENCE_CACHE_MEMORIES = 4096

/** @default 65536 — attestations and anchors kept by the EvidenceCache, all memories together. */
export const EVIDENCE_CACHE_RECORDS = 65_536

/**
 * Verifies every record, then stores them all with the recomputed trust of every memory they touch,
 * in one atomic write. Any record failing verification refuses the whole batch and stores nothing:
 * the error is that record's own (SIGNATURE_INVALID, TIMESTAMP_IN_FUTURE, …) with its position.
 *
 * A record is plain data (parsed JSON, a decoded record) or, as it arrives from the network, the
 * bytes of its canonical DAG-CBOR encoding: bytes are decoded once and must be in canonical form
 * (verifyRecordBytes, record-v1 R18), rather than decoded by the caller and parsed again here.
 * Batches for one store are scored and written one after another, so each sees the evidence the
 * previous ones stored (two concurrent batches attesting one memory would otherwise each score it
 * without the other's attestation, and the last write would win); verification, which needs no
 * store, runs before the batch takes its turn.
 */
export async function ingestRecords (store: RecordStore, inputs: readonly unknown[], options: IngestOptions): Promise<IngestResult> {
  const verifyOptions = { verifier: options.verifier, now: options.now }
  const verified: StoredRecord[] = inputs.map((input, index) => {
    try {
      const { id, signed }: VerifiedRecord = input instanceof Uint8Array
        ? verifyRecordBytes(input, verifyOptions)
        : verifyRecord(input, verifyOptions)
      return { id, signed }
    } catch (err) {
      if (err instanceof IsnadError) {
        throw new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
      }
      throw err
    }
  })
  const unique = [...new Map(verified.map((r) => [r.id, r])).values()]
  return await exclusively(store, async (cache) => {
    const storedBefore = await cache.validate(store)
    const fresh = await freshRecords(store, unique, cache)
    const evidence = await rescore(store, fresh, cache)
    const trust = new Map<string, TrustEntry>()
    for (const item of evidence) trust.set(item.memory.id, trustEntryOf(scoreEvidence(item, options.now)))
    let stored: string[]
    try {
      stored = await store.putMany(fresh, trust)
    } catch (err) {
      cache.clear()
      throw err
    }
    cache.remember(storedBefore, stored.length, fresh.length, evidence)
    const storedSet = new Set(stored)
    return {
      stored,
      duplicates: unique.filter((r) => !storedSet.has(r.id)).map((r) => r.id),
      rescored: [...trust.keys()]
    }
  })
}

/** The records of `unique` not stored yet: the cache answers for memories it holds, the store for the rest. */
async function freshRecords (store: RecordStore, unique: readonly StoredRecord[], cache: EvidenceCache): Promise<StoredRecord[]> {
  const known = unique.map((r) => cache.isStored(r))
  const ask = unique.filter((_, i) => known[i] === undefined)
  const answers = await mapConcurrently(ask, async (r) => await store.exists(r.id))
  let next = 0
  return unique.filter((_, i) => (known[i] ?? answers[next++]) !== true)
}

/**
 * The evidence of every memory that is in the batch or that a record of the batch points at. The
 * batch is grouped by memory first, so each memory's evidence is assembled once and sees only its
 * own pending records; memories the cache lacks are loaded concurrently (RESCORE_CONCURRENCY).
 */
async function rescore (store: RecordStore, batch: readonly StoredRecord[], cache: EvidenceCache): Promise<MemoryEvidence[]> {
  const memories = new Map<string, StoredRecord<MemoryRecord> | null>()
  const pending = new Map<string, StoredRecord[]>()
  for (const record of batch) {
    const { id, signed } = record
    if (signed.record.kind === 'memory') {
      memories.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    } else if (signed.record.kind === 'attestation' || signed.record.kind === 'anchor') {
      const list = pending.get(signed.record.memory)
      if (list === undefined) pending.set(signed.record.memory, [record])
      else list.push(record)
    }
  }
  const referenced = [...pending.keys()].filter((id) => !memories.has(id))
  const loaded = await mapConcurrently(referenced, async (id) => cache.get(id)?.memory ?? await store.getMemory(id))
  // Evidence for a memory this node has not seen is kept; it is scored when the memory arrives.
  referenced.forEach((id, i) => memories.set(id, loaded[i] ?? null))
  const scored = [...memories.values()].filter((m): m is StoredRecord<MemoryRecord> => m !== null)
  return await mapConcurrently(scored, async (memory) => {
    const cached = cache.get(memory.id)
    const own = pending.get(memory.id)
    return cached === undefined
      ? await gatherEvidence(store, memory, own)
      : evidenceOf(memory, [...cached.attestations], [...cached.anchors], own)
  })
}

/** `fn` over `items` with at most RESCORE_CONCURRENCY calls in flight; results in input order. */
async function mapConcurrently<T, U> (items: readonly T[], fn: (item: T) => Promise<U>): Promise<U[]> {
  const results = new Array<U>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(RESCORE_CONCURRENCY, items.length) }, worker))
  return results
}

interface CachedEvidence {
  memory: StoredRecord<MemoryRecord>
  attestations: ReadonlyArray<StoredRecord<AttestationRecord>>
  anchors: ReadonlyArray<StoredRecord<AnchorRecord>>
  ids: ReadonlySet<string>
}

/**
 * The stored evidence of recently scored memories, so a stream of batches attesting the same
 * memories does not reload and re-decode their earlier attestations on every batch. The store is
 * append-only and the source of truth; the cache is only trusted while the store's record count is
 * the one its last write left: a write that bypassed ingest changes the count and empties the cache.
 */
class EvidenceCache {
  private readonly memories = new Map<string, CachedEvidence>()
  private records = 0
  /** Records in the store after the last ingest, or -1 when unknown. */
  private storedTotal = -1

  /** Empties the cache unless the store holds exactly what the last ingest left; returns the count. */
  async validate (store: RecordStore): Promise<number> {
    const total = Object.values(await store.count()).reduce((sum, n) => sum + n, 0)
    if (total !== this.storedTotal) this.clear()
    return total
  }

  /** Least recently used first: a hit moves the entry to the end. */
  get (memoryId: string): CachedEvidence | undefined {
    const entry = this.memories.get(memoryId)
    if (entry !== undefined) {
      this.memories.delete(memoryId)
      this.memories.set(memoryId, entry)
    }
    return entry
  }

  /** Whether a record is stored, when the cache knows; undefined when the store must be asked. */
  isStored ({ id, signed }: StoredRecord): boolean | undefined {
    const { record } = signed
    if (record.kind === 'memory') return this.memories.has(id) ? true : undefined
    if (record.kind === 'attestation' || record.kind === 'anchor') return this.memories.get(record.memory)?.ids.has(id)
    return undefined
  }

  /** After a write: keeps the evidence just scored, unless another writer stored part of the batch. */
  remember (storedBefore: number, stored: number, fresh: number, evidence: readonly MemoryEvidence[]): void {
    if (stored !== fresh) {
      this.clear()
      return
    }
    this.storedTotal = storedBefore + stored
    for (const { memory, attestations, anchors } of evidence) {
      const entry: CachedEvidence = {
        memory,
        attestations,
        anchors: anchors.map((a) => a.stored),
        ids: new Set([...attestations.map((a) => a.id), ...anchors.map((a) => a.stored.id)])
      }
      this.records += entry.ids.size - (this.memories.get(memory.id)?.ids.size ?? 0)
      this.memories.delete(memory.id)
      this.memories.set(memory.id, entry)
    }
    for (const [id, entry] of this.memories) {
      if (this.memories.size <= EVIDENCE_CACHE_MEMORIES && this.records <= EVIDENCE_CACHE_RECORDS) break
      this.memories.delete(id)
      this.records -= entry.ids.size
    }
  }

  clear (): void {
    this.memories.clear()
    this.records = 0
    this.storedTotal = -1
  }
}

/** Per store: the tail of its ingest queue and its evidence cache. */
const ingestStates = new WeakMap<RecordStore, { tail: Promise<unknown>, cache: EvidenceCache }>()

async function exclusively<T> (store: RecordStore, task: (cache: EvidenceCache) => Promise<T>): Promise<T> {
  let state = ingestStates.get(store)
  if (state === undefined) {
    state = { tail: Promise.resolve(), cache: new EvidenceCache() }
    ingestStates.set(store, state)
  }
  const { cache } = state
  const result = state.tail.then(async () => await task(cache))
  state.tail = result.catch(() => undefined)
  return await result
}
