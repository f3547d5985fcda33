import type { SignatureVerifier } from '../../identity/index.js'
import type { TrustResult } from '../../trust/index.js'
import type { VerifiedRecord } from '../../record/index.js'
import type { LedgerEvent } from '../../schema/index.js'
import type { RecordLocation, RecordStore, StoredRecord } from '../../record-index/index.js'
import { EvidenceCache, scoreEvidence, trustEntryOf, type MemoryEvidence, type NodeTrustSetting, type ScoredEvidence } from '../trust/memory-evidence.js'
import type { RecordSource } from '../journal/record-events.js'
import {
  assertKeysMaySign, decodeAndVerify, evidenceTouchedBy, freshRecords, uniqueRecords, type RecordKeyCheck
} from './steps.js'

/**
 * Sources whose callers do not wait for views (the network's: a peer is answered when its records
 * are durable and indexed): their views are deferred, so a memory whose attestations arrive over
 * many pages or bursts is reduced once per round, not once per batch (docs/views.md).
 */
const DEFERRED_VIEW_SOURCES: ReadonlySet<RecordSource> = new Set(['sync', 'gossip'])

export interface IngestResult {
  /** Ids newly stored, in input order. */
  stored: string[]
  /** Ids that were already present. */
  duplicates: string[]
  /** Memories whose trust was recomputed. */
  rescored: string[]
}

/** Told of every batch's new records once they are durable and indexed (the publish step). */
export type StoredListener = (records: readonly StoredRecord[], source: RecordSource) => void

/** A batch the journal step made durable: its new records and the ledger events that hold them. */
export interface JournaledBatch {
  readonly records: readonly StoredRecord[]
  readonly events: readonly LedgerEvent[]
  /** Where the ledger holds records' bytes (their pack blocks), for the index to keep instead of the bytes. */
  readonly locations?: ReadonlyMap<string, RecordLocation>
}

/**
 * The ledger the pipeline writes through (the node's Journal, src/node/journal): the journal step
 * and the ledger side of the index step. It never calls back into the pipeline.
 */
export interface RecordJournal<B extends JournaledBatch = JournaledBatch> {
  /** journal: the batch's new records made durable, one event each, before this resolves. */
  journalRecords: (fresh: readonly StoredRecord[], source: RecordSource) => Promise<B>
  /** The index write failed after the journal step: what the ledger now holds stays answerable (its keys). */
  abandonBatch: (batch: B) => Promise<void>
  /** index, ledger side: Merkle leaves in ledger order, witness requests, idempotency keys. */
  logBatch: (batch: B) => Promise<void>
  /**
   * Views reduced from the memories the batch touched; requested now, resolved once written. `scored`
   * carries the trust the batch stored for them, which their views take as it is.
   */
  reduceViews: (batch: B, scored: ReadonlyMap<string, ScoredEvidence>) => Promise<void>
  /**
   * Views nobody waits for (records from the network): reduced in a round that may gather later
   * batches until `releaseViews`, and the batch settled by the journal once they are written.
   */
  deferViews: (batch: B, scored: ReadonlyMap<string, ScoredEvidence>) => void
  /** The pipeline is idle: the views deferred so far may be reduced now. */
  releaseViews: () => void
  /** The batch is applied everywhere: the index may now move past its events (indexed_lc). */
  settleBatch: (batch: B) => Promise<void>
}

/** What recovery hands the pipeline: records already in the ledger beyond what the index holds. */
export interface RecoveredBatch<B extends JournaledBatch = JournaledBatch> {
  batch: B
}

export interface IngestPipelineInit<B extends JournaledBatch = JournaledBatch> {
  store: RecordStore
  /** The signature check (and the platform's fast paths); verifier threads in the node. */
  verifier: SignatureVerifier
  /** Milliseconds since the epoch: freshness and the time trust is computed at. */
  clock: () => number
  /** The node's key logs (record-v1 K12); absent: no key is known to be rotated or revoked. */
  keys?: RecordKeyCheck
  /**
   * The node's trust setting (policy, reputation, identities); absent: the defaults. `pending` is
   * the batch being stored, whose votes count in the reputation it scores with (docs/trust.md §3).
   */
  trustSetting?: (pending: readonly StoredRecord[]) => Promise<NodeTrustSetting>
  /** The ledger; absent: a store-only pipeline (the in-memory store, figure 3 of the benchmarks). */
  journal?: RecordJournal<B>
  /**
   * Told of the records each batch stored, in the batch's turn right after the index write (before
   * the next batch is scored): the node's reputation keeps its votes current with it. Must not throw.
   */
  indexed?: (records: readonly StoredRecord[]) => void
}

/**
 * The one way a record enters a node, whatever its source (local, import, gossip, fetch, sync,
 * recovery): a fixed sequence of named steps, each throwing the record's own error (STYLE, after
 * sigstore-js's Verifier), owned by one object built with its collaborators.
 *
 *     decode → verify → check → score → journal → index → publish
 *
 * - decode + verify (record-v1 §5.2): bytes decoded once and refused unless canonical, plain data
 *   parsed, signatures checked VERIFY_CONCURRENCY at a time on the verifier threads; records the
 *   network already verified (`accept`) or this node just signed arrive as VerifiedRecord and skip
 *   this step, the fact carried by their type and by their bytes (record/verified-bytes.ts).
 * - check: duplicates dropped (the evidence cache, then the store), record-v1 K12 (keys).
 * - score: every memory the batch touches, from its evidence and the node's trust setting.
 * - journal: one durable ledger append for the batch's new records (the source of truth).
 * - index: records and their trust in one atomic store write (queries never see half a batch), then
 *   the Merkle leaves, witness requests and idempotency keys.
 * - publish: subscribers (the daemon's publisher, anchors, reputation) hear of the new records;
 *   views are written meanwhile, and the call returns once they are — except for records from sync
 *   and gossip, whose views are deferred to a round that runs once the pipeline is idle.
 *
 * A batch is all or nothing: any record failing a step refuses the batch and nothing is written.
 * Batches run check → index one after another (each sees the evidence the previous stored: two
 * concurrent batches attesting one memory would otherwise each score it without the other's
 * attestation); decode + verify, which need no store, run before a batch takes its turn.
 */
export class IngestPipeline<B extends JournaledBatch = JournaledBatch> {
  private readonly listeners = new Set<StoredListener>()
  private readonly cache = new EvidenceCache()
  private tail: Promise<unknown> = Promise.resolve()
  /** Calls of ingest, accept and recover not yet returned: at 0 (after a turn of the event loop), deferred views run. */
  private inFlight = 0
  /** Batch turns taken so far: numbers the scorings handed to the views (ScoredEvidence.turn). */
  private turns = 0

  constructor (private readonly init: IngestPipelineInit<B>) {}

  /** Records as data or as their canonical bytes (import, bundles, the CLI): verified here. */
  async ingest (inputs: readonly unknown[], source: RecordSource): Promise<IngestResult> {
    return await this.tracked(async () => {
      const verified = await decodeAndVerify(inputs, { verifier: this.init.verifier, now: this.init.clock() })
      return await this.run(verified, source)
    })
  }

  /**
   * Records already verified (the network checks each received record once, before its topic
   * validator accepts it; signRecordVerified made a local one): only a VerifiedRecord, the fact in
   * its type, and no signature is checked again. The store still checks each id against the
   * record's bytes.
   */
  async accept (records: readonly VerifiedRecord[], source: RecordSource): Promise<IngestResult> {
    return await this.tracked(async () => await this.run(records, source))
  }

  /**
   * Records the ledger holds beyond the index after a crash (between a durable append and the index
   * write): verified again (the ledger file may have been edited), checked, scored and indexed,
   * without a second journal step and without K12 (they were checked when journaled), nor publish
   * (nobody subscribes while a node opens).
   */
  async recover ({ batch }: RecoveredBatch<B>): Promise<IngestResult> {
    // A pack's records come with their bytes: verified as bytes (canonical form included), as received.
    return await this.tracked(async () => {
      const verified = await decodeAndVerify(batch.records.map((r) => r.bytes ?? r.signed), { verifier: this.init.verifier, now: this.init.clock() })
      return await this.run(verified, 'replay', batch)
    })
  }

  /**
   * Counts the call in flight; the last one out lets deferred views run, unless another call began
   * within a turn of the event loop (a sync loop or a caller storing page after page).
   */
  private async tracked<T> (call: () => Promise<T>): Promise<T> {
    this.inFlight++
    try {
      return await call()
    } finally {
      if (--this.inFlight === 0 && this.init.journal !== undefined) {
        const journal = this.init.journal
        setImmediate(() => { if (this.inFlight === 0) journal.releaseViews() })
      }
    }
  }

  /** Subscribes to the publish step; returns the unsubscribe function. */
  onStored (listener: StoredListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  private async run (records: readonly VerifiedRecord[], source: RecordSource, recovered?: B): Promise<IngestResult> {
    const unique = uniqueRecords(records)
    const { store, journal } = this.init
    const turn = await this.inTurn(async () => {
      const storedBefore = await this.cache.validate(store)
      const fresh = await freshRecords(store, unique, this.cache) // check
      if (recovered === undefined) assertKeysMaySign(this.init.keys, fresh) // check: record-v1 K12
      const evidence = await evidenceTouchedBy(store, fresh, this.cache) // score
      const results = await this.score(evidence, fresh)
      const trust = new Map([...results].map(([id, result]) => [id, trustEntryOf(result)]))
      const batch = recovered ?? (fresh.length > 0 ? await journal?.journalRecords(fresh, source) : undefined) // journal
      let stored: string[]
      try {
        stored = await store.putMany(fresh, trust, batch?.locations) // index: records (as their locations in the ledger) and trust, one atomic write
      } catch (err) {
        this.cache.clear()
        // The events are durable even though the records were not stored: their keys are kept now.
        if (batch !== undefined && recovered === undefined) await journal?.abandonBatch(batch).catch(() => {})
        throw err
      }
      this.cache.remember(storedBefore, stored.length, fresh.length, evidence)
      if (stored.length > 0 && this.init.indexed !== undefined) {
        const storedIds = new Set(stored)
        this.init.indexed(stored.length === fresh.length ? fresh : fresh.filter((r) => storedIds.has(r.id)))
      }
      // Another writer raced (the store stored fewer): what it holds for these memories must be read again.
      const scored = new Map<string, ScoredEvidence>()
      const turn = ++this.turns
      if (stored.length === fresh.length) {
        for (const item of evidence) {
          const result = results.get(item.memory.id)
          if (result !== undefined) scored.set(item.memory.id, { ...item, trust: result, turn })
        }
      }
      return { fresh, stored, trust, batch, scored }
    })
    const { fresh, stored, trust, batch, scored } = turn
    if (batch !== undefined && journal !== undefined) {
      // A failure from here on leaves the batch unsettled: indexed_lc stays below its events for the
      // rest of this run, and the next open recovers them.
      await journal.logBatch(batch) // index: the ledger side, in ledger order
      if (recovered === undefined && batch.records.length > 0 && DEFERRED_VIEW_SOURCES.has(source)) {
        journal.deferViews(batch, scored) // the journal settles the batch once they are written
        const failure = this.publish(fresh, source)
        if (failure !== undefined) throw failure.error
      } else {
        // Requested first, so a listener that throws cannot keep the views from being written.
        const views = batch.records.length === 0 ? Promise.resolve() : journal.reduceViews(batch, scored)
        const failure = recovered === undefined ? this.publish(fresh, source) : undefined
        await views
        await journal.settleBatch(batch)
        if (failure !== undefined) throw failure.error
      }
    }
    const storedSet = new Set(stored)
    if (journal === undefined && recovered === undefined) {
      const failure = this.publish(fresh.filter((r) => storedSet.has(r.id)), source)
      if (failure !== undefined) throw failure.error
    }
    return {
      stored,
      duplicates: unique.filter((r) => !storedSet.has(r.id)).map((r) => r.id),
      rescored: [...trust.keys()]
    }
  }

  /** score: every touched memory's trust under the node's setting (_meta/policy.json, its roots, its keyring). */
  private async score (evidence: readonly MemoryEvidence[], pending: readonly StoredRecord[]): Promise<Map<string, TrustResult>> {
    const trust = new Map<string, TrustResult>()
    if (evidence.length === 0) return trust
    const setting = await this.init.trustSetting?.(pending) ?? {}
    const now = this.init.clock()
    for (const item of evidence) trust.set(item.memory.id, scoreEvidence(item, now, setting))
    return trust
  }

  /**
   * publish: listeners hear of records before their views are written; one that throws stops none
   * of the others, and the first error is the call's (the records stay stored and journaled).
   */
  private publish (records: readonly StoredRecord[], source: RecordSource): { error: unknown } | undefined {
    if (records.length === 0) return undefined
    let failure: { error: unknown } | undefined
    for (const listener of this.listeners) {
      try {
        listener(records, source)
      } catch (error) {
        failure ??= { error }
      }
    }
    return failure
  }

  /** Batches for one store are checked, scored, journaled and indexed one after another. */
  private async inTurn<T> (task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task)
    this.tail = result.catch(() => undefined)
    return await result
  }
}
