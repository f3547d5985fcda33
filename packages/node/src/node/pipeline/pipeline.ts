import type { TrustSetting } from '../../reputation/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import type { RecordKeyCheck } from '../../key-events/index.js'
import type { TrustResult } from '../../trust/index.js'
import type { VerifiedRecord } from '../../record/index.js'
import type { LedgerEvent } from '../../schema/index.js'
import type { RecordLocation, RecordStore, StoredRecord, TrustEntry } from '../../record-index/index.js'
import { EvidenceCache, scoreEvidence, trustEntryOf, type MemoryEvidence, type ScoredEvidence } from '../trust/memory-evidence.js'
import type { RecordSource } from '../journal/record-events.js'
import { AcceptBatcher } from './accept-batcher.js'
import { MissingMemories, type MemoryFetcher } from './missing-memories.js'
import { assertKeysMaySign, decodeAndVerify, evidenceTouchedBy, freshRecords, uniqueRecords, type IngestResult } from './steps.js'

/**
 * Sources whose callers do not wait for views (the network's: a peer is answered when its records
 * are durable and indexed): their views are deferred, so a memory whose attestations arrive over
 * many pages or bursts is reduced once per round, not once per batch (docs/views.md).
 */
const DEFERRED_VIEW_SOURCES: ReadonlySet<RecordSource> = new Set(['sync', 'gossip'])

/**
 * Sources whose records `accept` gets from the network's gate, which judged their keys' history
 * (record-v1 K12) as it verified them: a record failing it was ignored there (gossip-v1 R13) and
 * never reaches the pipeline, so the check step does not ask again.
 */
const KEYS_JUDGED_SOURCES: ReadonlySet<RecordSource> = new Set(['gossip', 'fetch', 'sync'])

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
  /** The views the publish step has written (the node's ObjectViews, src/node/journal). */
  readonly views: BatchViews<B>
}

/** What the publish step asks of the node's views; each settles the batch once its views are written. */
export interface BatchViews<B extends JournaledBatch = JournaledBatch> {
  /**
   * Views reduced from the memories the batch touched; requested now, resolved once written and the
   * batch settled. `scored` carries the trust the batch stored for them, which their views take as it is.
   */
  write: (batch: B, scored: ReadonlyMap<string, ScoredEvidence>) => Promise<void>
  /**
   * Views nobody waits for (records from the network): reduced in a round that may gather later
   * batches until `release`, and the batch settled once they are written. Never throws.
   */
  defer: (batch: B, scored: ReadonlyMap<string, ScoredEvidence>) => void
  /** The pipeline is idle: the views deferred so far may be reduced now. */
  release: () => void
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
  trustSetting?: (pending: readonly StoredRecord[]) => Promise<TrustSetting>
  /** The ledger; absent: a store-only pipeline (the in-memory store, figure 3 of the benchmarks). */
  journal?: RecordJournal<B>
  /**
   * The node's reputation votes, told of the records each batch stored in the batch's turn, right
   * after the index write (before the next batch is scored). Its `observe` must not throw.
   */
  votes?: { observe: (records: readonly StoredRecord[]) => void }
}

/** How `run` takes a batch: a recovered one (no journal step), and whether K12 was checked before it came. */
interface RunOptions<B> {
  recovered?: B
  keysChecked?: boolean
}

/** What the check step found: the batch's new records, and the store's count the evidence cache was checked against. */
interface Checked {
  fresh: StoredRecord[]
  storedBefore: number
}

/** What the score step adds: the evidence of every memory the batch touches, and their trust. */
interface Scoring extends Checked {
  evidence: MemoryEvidence[]
  trust: Map<string, TrustResult>
}

/** What a batch's turn leaves for the publish step. */
interface Applied<B> {
  fresh: readonly StoredRecord[]
  stored: string[]
  rescored: string[]
  batch: B | undefined
  /** The evidence and trust the batch stored, for the views; empty when another writer raced. */
  scored: ReadonlyMap<string, ScoredEvidence>
}

/**
 * The one way a record enters a node, whatever its source (local, import, gossip, fetch, sync,
 * recovery): a fixed sequence of named steps, each a method of this object throwing the record's
 * own error (STYLE, after sigstore-js's Verifier), owned by one object built with its collaborators.
 *
 *     verify → check → score → journal → index → publish        (run)
 *
 * - verify (record-v1 §5.2): bytes decoded once and refused unless canonical, plain data parsed,
 *   signatures checked INGEST_VERIFY_CONCURRENCY at a time on the verifier threads; records the
 *   network already verified (`accept`) or this node just signed arrive as VerifiedRecord and skip
 *   this step, the fact carried by their type and by their bytes (record/verified-bytes.ts).
 * - check: duplicates dropped (the evidence cache, then the store), record-v1 K12 (keys) unless the
 *   network's gate judged it (received records: ignored there, gossip-v1 R13) or the journal did (recovery).
 * - score: every memory the batch touches, from its evidence and the node's trust setting. It comes
 *   before the journal and index steps because the index stores records and their trust in one
 *   write: a query never sees a record without its memory's trust.
 * - journal: one durable ledger append for the batch's new records (the source of truth).
 * - index: records and their trust in one atomic store write (queries never see half a batch), the
 *   reputation's votes, then the ledger side: Merkle leaves, witness requests, idempotency keys.
 * - publish: subscribers (the daemon's publisher, anchors, witness draw) hear of the new records;
 *   views are written meanwhile, and the call returns once they are — except for records from sync
 *   and gossip, whose views are deferred to a round that runs once the pipeline is idle.
 *
 * A batch is all or nothing: any record failing a step refuses the batch and nothing is written.
 * Batches run check → index one after another (each sees the evidence the previous stored: two
 * concurrent batches attesting one memory would otherwise each score it without the other's
 * attestation); verify, which needs no store, runs before a batch takes its turn. Records from
 * gossip are grouped first (AcceptBatcher): those arriving while a batch is stored go together.
 */
export class IngestPipeline<B extends JournaledBatch = JournaledBatch> {
  private readonly listeners = new Set<StoredListener>()
  private readonly cache = new EvidenceCache()
  /** Group commit of gossiped records: one batch (one ledger fdatasync) for a burst of messages. */
  private readonly gossipBatches = new AcceptBatcher(async (records) => await this.run(records, 'gossip', { keysChecked: true }))
  /** Memories gossip validation found missing (gossip-v1 R10), fetched and ingested after delivery. */
  private readonly missing = new MissingMemories({
    has: async (ids) => await this.init.store.existsMany(ids),
    accept: async (records, source) => await this.accept(records, source)
  })
  private tail: Promise<unknown> = Promise.resolve()
  /** Calls of ingest, accept and recover not yet returned: at 0 (after a turn of the event loop), deferred views run. */
  private inFlight = 0
  /** Batch turns taken so far: numbers the scorings handed to the views (ScoredEvidence.turn). */
  private turns = 0

  constructor (private readonly init: IngestPipelineInit<B>) {}

  /** Records as data or as their canonical bytes (import, bundles, the CLI): verified here. */
  async ingest (inputs: readonly unknown[], source: RecordSource): Promise<IngestResult> {
    return await this.tracked(async () => await this.run(await this.verify(inputs), source))
  }

  /**
   * Records already verified (the network checks each received record once, before its topic
   * validator accepts it; signRecordVerified made a local one): only a VerifiedRecord, the fact in
   * its type, and no signature is checked again. The store still checks each id against the
   * record's bytes. Gossiped records are grouped with those arriving while a batch is stored.
   */
  async accept (records: readonly VerifiedRecord[], source: RecordSource): Promise<IngestResult> {
    return await this.tracked(async () => source === 'gossip'
      ? await this.gossipBatches.accept(records)
      : await this.run(records, source, { keysChecked: KEYS_JUDGED_SOURCES.has(source) }))
  }

  /**
   * Records the ledger holds beyond the index after a crash (between a durable append and the index
   * write): verified again (the ledger file may have been edited), checked, scored and indexed,
   * without a second journal step and without K12 (they were checked when journaled), nor publish
   * (nobody subscribes while a node opens).
   */
  async recover ({ batch }: RecoveredBatch<B>): Promise<IngestResult> {
    // A pack's records come with their bytes: verified as bytes (canonical form included), as received.
    return await this.tracked(async () => await this.run(await this.verify(batch.records.map((r) => r.bytes ?? r.signed)), 'replay', { recovered: batch, keysChecked: true }))
  }

  /**
   * A gossiped attestation or anchor named a memory this node holds nowhere (gossip-v1 R10): it is
   * asked of `from` (then other peers) through the fetcher, outside validation, and ingested here.
   */
  wantMemory (memoryId: string, from: string): void {
    this.missing.want(memoryId, from)
  }

  /** The network missing memories are fetched through (the daemon's); undefined: none. */
  fetchMissingWith (fetcher: MemoryFetcher | undefined): void {
    this.missing.fetchWith(fetcher)
  }

  /** Resolves once every missing memory learned so far is ingested or given up. */
  async missingSettled (): Promise<void> {
    await this.missing.idle()
  }

  /** Stops fetching missing memories; the node closes the journal and store after this. */
  async close (): Promise<void> {
    await this.missing.close()
  }

  /** Subscribes to the publish step; returns the unsubscribe function. */
  onStored (listener: StoredListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** The steps in order; check → index in the batch's turn, after the batches before it. */
  private async run (records: readonly VerifiedRecord[], source: RecordSource, { recovered, keysChecked = false }: RunOptions<B> = {}): Promise<IngestResult> {
    const unique = uniqueRecords(records)
    const applied = await this.inTurn(async () => {
      const scoring = await this.score(await this.check(unique, !keysChecked))
      const batch = recovered ?? await this.journal(scoring.fresh, source)
      const stored = await this.index(scoring, batch, recovered !== undefined)
      return this.appliedOf(scoring, stored, batch)
    })
    await this.publish(applied, source, recovered !== undefined)
    const storedSet = new Set(applied.stored)
    return {
      stored: applied.stored,
      duplicates: unique.filter((r) => !storedSet.has(r.id)).map((r) => r.id),
      rescored: applied.rescored
    }
  }

  /** verify: decode and signature checks, all or nothing (steps.ts decodeAndVerify). */
  private async verify (inputs: readonly unknown[]): Promise<VerifiedRecord[]> {
    return await decodeAndVerify(inputs, { verifier: this.init.verifier, now: this.init.clock() })
  }

  /**
   * check: the records not stored yet, and record-v1 K12 on them unless it was checked already:
   * by the network's gate (received records) or when the records were journaled (recovery).
   */
  private async check (unique: readonly StoredRecord[], checkKeys: boolean): Promise<Checked> {
    const storedBefore = await this.cache.validate(this.init.store)
    const fresh = await freshRecords(this.init.store, unique, this.cache)
    if (checkKeys) assertKeysMaySign(this.init.keys, fresh)
    return { fresh, storedBefore }
  }

  /** score: every touched memory's evidence and trust under the node's setting (_meta/policy.json, its roots, its keyring). */
  private async score (checked: Checked): Promise<Scoring> {
    const evidence = await evidenceTouchedBy(this.init.store, checked.fresh, this.cache)
    const trust = new Map<string, TrustResult>()
    if (evidence.length === 0) return { ...checked, evidence, trust }
    const setting = await this.init.trustSetting?.(checked.fresh) ?? {}
    const now = this.init.clock()
    for (const item of evidence) trust.set(item.memory.id, scoreEvidence(item, now, setting))
    return { ...checked, evidence, trust }
  }

  /** journal: the new records made durable in the ledger, one append; none without a ledger or new records. */
  private async journal (fresh: readonly StoredRecord[], source: RecordSource): Promise<B | undefined> {
    return fresh.length > 0 ? await this.init.journal?.journalRecords(fresh, source) : undefined
  }

  /**
   * index: records (as their locations in the ledger) and their memories' trust in one atomic store
   * write, the reputation's votes, then the ledger side in ledger order (Merkle leaves, witness
   * requests, idempotency keys). A failure after the ledger side began leaves the batch unsettled:
   * indexed_lc stays below its events for the rest of this run, and the next open recovers them.
   */
  private async index ({ fresh, trust, storedBefore, evidence }: Scoring, batch: B | undefined, recovered: boolean): Promise<string[]> {
    const { store, journal } = this.init
    const entries = new Map<string, TrustEntry>([...trust].map(([id, result]) => [id, trustEntryOf(result)]))
    let stored: string[]
    try {
      stored = await store.putMany(fresh, entries, batch?.locations)
    } catch (err) {
      this.cache.clear()
      // The events are durable even though the records were not stored: their keys are kept now.
      if (batch !== undefined && !recovered) await journal?.abandonBatch(batch).catch(() => {})
      throw err
    }
    this.cache.remember(storedBefore, stored.length, fresh.length, evidence)
    if (stored.length > 0) {
      const storedIds = new Set(stored)
      this.init.votes?.observe(stored.length === fresh.length ? fresh : fresh.filter((r) => storedIds.has(r.id)))
    }
    if (batch !== undefined) await journal?.logBatch(batch)
    return stored
  }

  /** The turn's outcome; its scorings go to the views only when the store stored the whole batch (no other writer raced). */
  private appliedOf ({ fresh, evidence, trust }: Scoring, stored: string[], batch: B | undefined): Applied<B> {
    const scored = new Map<string, ScoredEvidence>()
    const turn = ++this.turns
    if (stored.length === fresh.length) {
      for (const item of evidence) {
        const result = trust.get(item.memory.id)
        if (result !== undefined) scored.set(item.memory.id, { ...item, trust: result, turn })
      }
    }
    return { fresh, stored, rescored: [...trust.keys()], batch, scored }
  }

  /**
   * publish: listeners hear of the new records (not for a recovered batch: nobody subscribes while a
   * node opens) while the batch's views are written; then the batch is settled. Records from sync
   * and gossip leave their views to a deferred round, which settles the batch once written.
   */
  private async publish ({ fresh, stored, batch, scored }: Applied<B>, source: RecordSource, recovered: boolean): Promise<void> {
    const { journal } = this.init
    const announced = batch !== undefined ? fresh : fresh.filter((r) => stored.includes(r.id))
    if (batch === undefined || journal === undefined) {
      if (!recovered) this.announce(announced, source)
      return
    }
    if (!recovered && batch.records.length > 0 && DEFERRED_VIEW_SOURCES.has(source)) {
      journal.views.defer(batch, scored)
      this.announce(announced, source)
      return
    }
    // Requested first, so a listener that throws cannot keep the views from being written.
    const views = journal.views.write(batch, scored)
    let failure: { error: unknown } | undefined
    try {
      if (!recovered) this.announce(announced, source)
    } catch (error) {
      failure = { error }
    }
    await views
    if (failure !== undefined) throw failure.error
  }

  /**
   * Tells every listener of the records; one that throws stops none of the others, and the first
   * error is thrown once all have heard (the records stay stored and journaled).
   */
  private announce (records: readonly StoredRecord[], source: RecordSource): void {
    if (records.length === 0) return
    let failure: { error: unknown } | undefined
    for (const listener of this.listeners) {
      try {
        listener(records, source)
      } catch (error) {
        failure ??= { error }
      }
    }
    if (failure !== undefined) throw failure.error
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
        setImmediate(() => { if (this.inFlight === 0) journal.views.release() })
      }
    }
  }

  /** Batches for one store are checked, scored, journaled and indexed one after another. */
  private async inTurn<T> (task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task)
    this.tail = result.catch(() => undefined)
    return await result
  }
}
