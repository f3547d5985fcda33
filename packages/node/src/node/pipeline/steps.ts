import { IsnadError } from '../../errors/index.js'
import { verifyRecordAsync, verifyRecordBytesAsync, type VerifiedRecord, type VerifyRecordOptions } from '../../record/index.js'
import type { RecordKeyCheck } from '../../key-events/index.js'
import type { MemoryRecord } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../record-index/index.js'
import { EvidenceCache, evidenceOf, gatherEvidence, type MemoryEvidence } from '../trust/memory-evidence.js'
import { mapConcurrently } from '../map-concurrently.js'

/** What one ingest did with its records (every entry point of the pipeline returns it). */
export interface IngestResult {
  /** Ids newly stored, in input order. */
  stored: string[]
  /** Ids that were already present. */
  duplicates: string[]
  /** Memories whose trust was recomputed. */
  rescored: string[]
}

/*
 * The steps of the ingest pipeline that are plain functions of their inputs and collaborators
 * (IngestPipeline, pipeline.ts, runs them in order): decode + verify a batch, check what is new and
 * whose keys may sign it, gather the evidence to score. Each throws the record's own error naming
 * its position, and none writes anything.
 */

/**
 * @default 64 — memories whose evidence is loaded at the same time while a batch is scored: enough
 * to keep LevelDB's thread pool busy while this thread decodes, few enough that a 4096-record
 * import does not open thousands of iterators at once.
 */
export const RESCORE_CONCURRENCY = 64

/**
 * @default 256 — records of one batch being verified at the same time (verifyAsync; on verifier
 * threads for nodeCryptoVerifier, src/fast-crypto/verify-threads.ts, and received bytes verified whole
 * there, record-threads.ts): enough to keep every thread busy while this one stores the previous
 * batch. At 64, bytes verified whole on the threads left them idle between round trips (figure 3
 * fell to 0.57–0.61× raw verify against 0.73–1.01× for the old build; at 256, 0.56–0.68× against
 * 0.54–0.73×, BENCHMARKS.md).
 */
export const INGEST_VERIFY_CONCURRENCY = 256

/**
 * decode → verify: every input (the canonical bytes of a record as they arrive from the network,
 * or plain data: parsed JSON, a decoded record) through record-v1 §5.2, with up to
 * INGEST_VERIFY_CONCURRENCY signature checks in flight; all or nothing. Bytes are decoded once and must be
 * canonical (R18). The error reported is the one of the lowest failing position, so it does not
 * depend on which check finishes first: once a record fails, records after it are not started
 * (they cannot be the one reported), and those before it all finish.
 */
export async function decodeAndVerify (inputs: readonly unknown[], options: VerifyRecordOptions): Promise<VerifiedRecord[]> {
  const results = new Array<VerifiedRecord>(inputs.length)
  let failedAt = inputs.length
  let failure: unknown
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < failedAt) {
      const index = next++
      try {
        const input = inputs[index]
        results[index] = input instanceof Uint8Array
          ? await verifyRecordBytesAsync(input, options)
          : await verifyRecordAsync(input, options)
      } catch (err) {
        if (index < failedAt) {
          failedAt = index
          failure = err
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(INGEST_VERIFY_CONCURRENCY, inputs.length) }, worker))
  if (failedAt < inputs.length) throw positioned(failure, failedAt)
  return results
}

/** A step's error naming the record's position (1-based in the message, 0-based in details). */
export function positioned (err: unknown, index: number): unknown {
  if (!(err instanceof IsnadError)) return err
  return new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
}

/** The records of a batch once, in first-seen order, as the store keeps them (id, record, canonical bytes). */
export function uniqueRecords (records: ReadonlyArray<VerifiedRecord | StoredRecord>): StoredRecord[] {
  const unique = new Map<string, StoredRecord>()
  for (const { id, signed, bytes } of records) {
    if (!unique.has(id)) unique.set(id, bytes === undefined ? { id, signed } : { id, signed, bytes })
  }
  return [...unique.values()]
}

/** check: the records of `unique` not stored yet; the cache answers for memories it holds, the store for the rest. */
export async function freshRecords (store: RecordStore, unique: readonly StoredRecord[], cache: EvidenceCache): Promise<StoredRecord[]> {
  const known = unique.map((r) => cache.isStored(r))
  const ask = unique.filter((_, i) => known[i] === undefined).map((r) => r.id)
  const answers = ask.length === 0 ? [] : await store.existsMany(ask)
  let next = 0
  return unique.filter((_, i) => (known[i] ?? answers[next++]) !== true)
}

/** check, record-v1 K12: refuses the batch when a record's key was rotated out or revoked at the record's time. */
export function assertKeysMaySign (keys: RecordKeyCheck | undefined, records: readonly StoredRecord[]): void {
  if (keys === undefined) return
  records.forEach((record, index) => {
    const error = keys.checkRecord(record.signed, record.id)
    if (error !== undefined) throw positioned(error, index)
  })
}

/**
 * score, first half: the evidence of every memory that is in the batch or that a record of the
 * batch points at. The batch is grouped by memory first, so each memory's evidence is assembled
 * once and sees only its own pending records; memories the cache lacks are loaded concurrently
 * (RESCORE_CONCURRENCY).
 */
export async function evidenceTouchedBy (store: RecordStore, batch: readonly StoredRecord[], cache: EvidenceCache): Promise<MemoryEvidence[]> {
  const memories = new Map<string, StoredRecord<MemoryRecord> | null>()
  const pending = new Map<string, StoredRecord[]>()
  for (const record of batch) {
    const { id, signed } = record
    if (signed.record.kind === 'memory') {
      memories.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    } else if (signed.record.kind === 'attestation' || signed.record.kind === 'anchor' || signed.record.kind === 'witness_request') {
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
    if (cached !== undefined) return evidenceOf(memory, [...cached.attestations], [...cached.anchors], own, cached.ids, [...cached.requests])
    // A memory new to the store has stored evidence only if some arrived before it (orphans):
    // usually none, and then listing its attestations and anchors (two LevelDB iterators) is skipped.
    return fresh.has(memory.id) && !await store.hasOrphanEvidence(memory.id)
      ? evidenceOf(memory, [], [], own)
      : await gatherEvidence(store, memory, own)
  })
}
