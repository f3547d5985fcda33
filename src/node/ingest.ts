import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { verifyRecord } from '../record/index.js'
import type { MemoryRecord } from '../schema/index.js'
import type { RecordStore, StoredRecord, TrustEntry } from '../store/index.js'
import { gatherEvidence, scoreEvidence, trustEntryOf } from './evidence.js'

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
 * Verifies every record, then stores them all with the recomputed trust of every memory they touch,
 * in one atomic write. Any record failing verification refuses the whole batch and stores nothing:
 * the error is that record's own (SIGNATURE_INVALID, TIMESTAMP_IN_FUTURE, …) with its position.
 */
export async function ingestRecords (store: RecordStore, inputs: readonly unknown[], options: IngestOptions): Promise<IngestResult> {
  const verified: StoredRecord[] = inputs.map((input, index) => {
    try {
      const { id, signed } = verifyRecord(input, { verifier: options.verifier, now: options.now })
      return { id, signed }
    } catch (err) {
      if (err instanceof IsnadError) {
        throw new IsnadError(err.code, `record #${index + 1}: ${err.message}`, { details: { index, ...err.details }, cause: err })
      }
      throw err
    }
  })
  const unique = [...new Map(verified.map((r) => [r.id, r])).values()]
  const present = await Promise.all(unique.map(async (r) => await store.exists(r.id)))
  const fresh = unique.filter((_, i) => present[i] !== true)
  const trust = await rescore(store, fresh, options.now)
  const stored = await store.putMany(fresh, trust)
  const storedSet = new Set(stored)
  return {
    stored,
    duplicates: unique.filter((r) => !storedSet.has(r.id)).map((r) => r.id),
    rescored: [...trust.keys()]
  }
}

/** Trust of every memory that is in the batch or that a record of the batch points at. */
async function rescore (store: RecordStore, batch: readonly StoredRecord[], now: number): Promise<Map<string, TrustEntry>> {
  const memories = new Map<string, StoredRecord<MemoryRecord>>()
  const referenced = new Set<string>()
  for (const { id, signed } of batch) {
    if (signed.record.kind === 'memory') memories.set(id, { id, signed: { record: signed.record, signature: signed.signature } })
    else if (signed.record.kind === 'attestation' || signed.record.kind === 'anchor') referenced.add(signed.record.memory)
  }
  for (const id of referenced) {
    if (memories.has(id)) continue
    const known = await store.getMemory(id)
    // Evidence for a memory this node has not seen is kept; it is scored when the memory arrives.
    if (known !== null) memories.set(id, known)
  }
  const trust = new Map<string, TrustEntry>()
  for (const memory of memories.values()) {
    trust.set(memory.id, trustEntryOf(scoreEvidence(await gatherEvidence(store, memory, batch), now)))
  }
  return trust
}
