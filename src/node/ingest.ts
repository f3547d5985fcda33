import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { assertRecordKeys } from '../key-events/index.js'
import { verifyRecordAsync, verifyRecordBytesAsync, type VerifiedRecord, type VerifyRecordOptions } from '../record/index.js'
import type { MemoryRecord } from '../schema/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../store/index.js'
import { mapConcurrently } from './map-concurrently.js'
import { EvidenceCache, evidenceOf, gatherEvidence, scoreEvidence, trustEntryOf, trustSettingOf, type MemoryEvidence } from './memory-evidence.js'

/** How ingestVerified stores and scores a batch; ingestRecords adds the verifier. */
export interface IngestVerifiedOptions {
  /** The clock trust is computed at, in ms since the epoch. */
  now: number
  /**
   * Called with the records about to be stored (verified, deduplicated, not in the store yet; each
   * with its canonical `bytes`), in input order, after the batch is scored and before anything is
   * written: the ledger appends its durable events here. If it throws, nothing is stored and ingest
   * rejects with its error. Runs in the store's ingest turn, so calls follow the order of writes.
   * Not called when the batch holds nothing new. The records must not be modified.
   */
  beforeStore?: (fresh: StoredRecord[]) => Promise<void>
  /**
   * Called once the batch is stored, with the records this write stored (in input order), the
   * trust entries written with them and, by memory id, the evidence they were scored from — what
   * the store now holds for each rescored memory, so the caller need not read it again (empty when
   * the store stored fewer records than planned: another writer raced, the store must be asked).
   * Runs in the store's ingest turn; if it throws, ingest rejects with its error, but the records
   * stay stored. Not called when nothing new was stored.
   */
  afterStore?: (stored: StoredRecord[], trust: ReadonlyMap<string, TrustEntry>, evidence: ReadonlyMap<string, MemoryEvidence>) => Promise<void>
}

export interface IngestOptions extends IngestVerifiedOptions {
  verifier: SignatureVerifier
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

/**
 * @default 64 — signatures of one batch being checked at the same time (verifyAsync; on verifier
 * threads for nodeCryptoVerifier, src/native/verify-threads.ts): enough to keep every thread busy
 * while this one decodes the next records and stores the previous batch.
 */
export const VERIFY_CONCURRENCY = 64

/**
 * Verifies every record, then stores them all with the recomputed trust of every memory they touch,
 * in one atomic write. Any record failing verification refuses the whole batch and stores nothing:
 * the error is that record's own (SIGNATURE_INVALID, TIMESTAMP_IN_FUTURE, …) with its position,
 * and when several fail, the first in input order, whichever check finished first.
 *
 * A record is plain data (parsed JSON, a decoded record) or, as it arrives from the network, the
 * bytes of its canonical DAG-CBOR encoding: bytes are decoded once and must be in canonical form
 * (verifyRecordBytes, record-v1 R18), rather than decoded by the caller and parsed again here.
 * Signatures are checked concurrently (VERIFY_CONCURRENCY) with the verifier's verifyAsync, and the
 * canonical bytes verification builds go to the store, which then does not encode them again.
 * Batches for one store are scored and written one after another, so each sees the evidence the
 * previous ones stored (two concurrent batches attesting one memory would otherwise each score it
 * without the other's attestation, and the last write would win); verification, which needs no
 * store, runs before the batch takes its turn.
 */
export async function ingestRecords (store: RecordStore, inputs: readonly unknown[], options: IngestOptions): Promise<IngestResult> {
  const verified = await verifyAll(inputs, { verifier: options.verifier, now: options.now })
  return await storeVerified(store, verified, options)
}

/**
 * ingestRecords for records that already passed verifyRecord / verifyRecordBytes in the caller
 * (the network layer verifies each received message once), so no signature is checked again: the
 * same dedup, scoring, hooks and atomic write. The records are trusted as verified; the store still
 * checks each id against the record's bytes (or encoding).
 */
export async function ingestVerified (store: RecordStore, records: ReadonlyArray<VerifiedRecord | StoredRecord>, options: IngestVerifiedOptions): Promise<IngestResult> {
  const verified: StoredRecord[] = records.map(({ id, signed, bytes }) => (bytes === undefined ? { id, signed } : { id, signed, bytes }))
  return await storeVerified(store, verified, options)
}

/** Dedup, score and store verified records, in the store's ingest turn. */
async function storeVerified (store: RecordStore, verified: readonly StoredRecord[], options: IngestVerifiedOptions): Promise<IngestResult> {
  const unique = [...new Map(verified.map((r) => [r.id, r])).values()]
  return await exclusively(store, async (cache) => {
    const storedBefore = await cache.validate(store)
    const fresh = await freshRecords(store, unique, cache)
    assertRecordKeys(store, fresh) // record-v1 K12: no record of a key after its rotation or revocation
    const evidence = await rescore(store, fresh, cache)
    const trust = new Map<string, TrustEntry>()
    // The node's policy (_meta/policy.json) and reputation, counting the batch's own votes.
    const setting = evidence.length === 0 ? {} : await trustSettingOf(store, fresh)
    for (const item of evidence) trust.set(item.memory.id, trustEntryOf(scoreEvidence(item, options.now, setting)))
    if (fresh.length > 0) await options.beforeStore?.(fresh)
    let stored: string[]
    try {
      stored = await store.putMany(fresh, trust)
    } catch (err) {
      cache.clear()
      throw err
    }
    cache.remember(storedBefore, stored.length, fresh.length, evidence)
    const storedSet = new Set(stored)
    if (stored.length > 0 && options.afterStore !== undefined) {
      const scored = stored.length === fresh.length ? new Map(evidence.map((item) => [item.memory.id, item])) : new Map<string, MemoryEvidence>()
      await options.afterStore(fresh.filter((r) => storedSet.has(r.id)), trust, scored)
    }
    return {
      stored,
      duplicates: unique.filter((r) => !storedSet.has(r.id)).map((r) => r.id),
      rescored: [...trust.keys()]
    }
  })
}

/**
 * Verifies `inputs` with up to VERIFY_CONCURRENCY signature checks in flight; all or nothing. The
 * error reported is the one of the lowest failing position, so it does not depend on which check
 * finishes first: once a record fails, records after it are not started (they cannot be the one
 * reported), and those before it all finish.
 */
async function verifyAll (inputs: readonly unknown[], options: VerifyRecordOptions): Promise<StoredRecord[]> {
  const results = new Array<StoredRecord>(inputs.length)
  let failedAt = inputs.length
  let failure: unknown
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < failedAt) {
      const index = next++
      try {
        const input = inputs[index]
        const { id, signed, bytes }: VerifiedRecord = input instanceof Uint8Array
          ? await verifyRecordBytesAsync(input, options)
          : await verifyRecordAsync(input, options)
        results[index] = { id, signed, bytes }
      } catch (err) {
        if (index < failedAt) {
          failedAt = index
          failure = err
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, inputs.length) }, worker))
  if (failedAt < inputs.length) throw positioned(failure, failedAt)
  return results
}

/** A verification error naming the record's position (1-based in the message, 0-based in details). */
function positioned (err: unknown, index: number): unknown {
  if (!(err instanceof IsnadError)) return err
  return new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
}

/** The records of `unique` not stored yet: the cache answers for memories it holds, the store for the rest. */
async function freshRecords (store: RecordStore, unique: readonly StoredRecord[], cache: EvidenceCache): Promise<StoredRecord[]> {
  const known = unique.map((r) => cache.isStored(r))
  const ask = unique.filter((_, i) => known[i] === undefined).map((r) => r.id)
  const answers = ask.length === 0 ? [] : await store.existsMany(ask)
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
  const fresh = new Set(memories.keys()) // the batch's memories: not stored yet
  const referenced = [...pending.keys()].filter((id) => !memories.has(id))
  const loaded = await mapConcurrently(referenced, RESCORE_CONCURRENCY, async (id) => cache.get(id)?.memory ?? await store.getMemory(id))
  // Evidence for a memory this node has not seen is kept; it is scored when the memory arrives.
  referenced.forEach((id, i) => memories.set(id, loaded[i] ?? null))
  const scored = [...memories.values()].filter((m): m is StoredRecord<MemoryRecord> => m !== null)
  return await mapConcurrently(scored, RESCORE_CONCURRENCY, async (memory) => {
    const cached = cache.get(memory.id)
    const own = pending.get(memory.id)
    if (cached !== undefined) return evidenceOf(memory, [...cached.attestations], [...cached.anchors], own, cached.ids)
    // A memory new to the store has stored evidence only if some arrived before it (orphans):
    // usually none, and then listing its attestations and anchors (two LevelDB iterators) is skipped.
    return fresh.has(memory.id) && !await store.hasOrphanEvidence(memory.id)
      ? evidenceOf(memory, [], [], own)
      : await gatherEvidence(store, memory, own)
  })
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
