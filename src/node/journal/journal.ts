import type { SignatureVerifier } from '../../identity/index.js'
import { openEventLedger, type AppendOptions, type EventInput, type EventLedger } from '../../ledger/index.js'
import { readPolicy, viewRulesOf } from '../../ledger/meta/index.js'
import { createCheckpoint, detectEquivocation, signCheckpoint, type SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent, WitnessRequestRecord } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../store/index.js'
import type { MemoryEvidence } from '../memory-evidence.js'
import { ingestRecords, ingestVerified, type IngestResult, type IngestVerifiedOptions } from '../ingest.js'
import type { VerifiedRecord } from '../../record/index.js'
import { journalIndexPath, type NodePaths } from '../home-paths.js'
import { JournalState } from './journal-state.js'
import { recordEventOf, recordOfEvent, type RecordSource } from './record-events.js'
import { ViewReducer } from './view-reducer.js'
import { ReductionRounds } from './reduction-rounds.js'
import { appendConflict } from './conflicts.js'

export function witnessRequestsIn (records: readonly StoredRecord[]): Array<StoredRecord<WitnessRequestRecord>> {
  return records.flatMap(({ id, signed }) => signed.record.kind === 'witness_request'
    ? [{ id, signed: { record: signed.record, signature: signed.signature } }]
    : [])
}

/** The key that signs this node's checkpoints: separate from the agents' keys (DESIGN §1). */
export interface LogSigner {
  did: string
  secretKey: Uint8Array
}

export interface JournalInit {
  paths: NodePaths
  scope: string
  store: RecordStore
  verifier: SignatureVerifier
  clock: () => number
  logSigner: LogSigner
}

/**
 * The node's write path through the ledgers (DESIGN §4): every state change is first a durable
 * `diasync-v1-event`, then applied to the LevelDB index, the Merkle log and the views. The index
 * never runs ahead of the ledger (`indexed_lc`), so after a crash `open` replays what the ledger
 * holds beyond it.
 */
/** Told of every record newly stored, after it is durable, indexed and in the Merkle log (the daemon publishes them). */
export type StoredListener = (records: readonly StoredRecord[], source: RecordSource) => void

/** A store call's record events from the ledger on: `from` is no higher than the lowest lc they got. */
interface Applying { from: number }

export class Journal {
  private readonly listeners = new Set<StoredListener>()
  /** Store calls whose record events may be in the ledger but not yet in the index, Merkle log and views. */
  private readonly applying = new Set<Applying>()
  private readonly reductions: ReductionRounds

  private constructor (
    private readonly init: JournalInit,
    readonly events: EventLedger,
    readonly state: JournalState,
    private readonly views: ViewReducer
  ) {
    this.reductions = new ReductionRounds(async (memoryIds, scored) => {
      const reduced = await this.views.reduce(this.init.store, memoryIds, this.now, scored)
      // Their keys go with the next indexed_lc write: one LevelDB write instead of two. `applying`
      // keeps indexed_lc below these events until the keys are handed over (JournalState.deferKeys).
      // A failed append leaves `applying` in place, as a failed store call does (journaled).
      const applying = { from: this.events.lastLc + 1 }
      this.applying.add(applying)
      this.state.deferKeys(await this.append(reduced, { deferKeys: true }))
      this.applying.delete(applying)
    })
  }

  static async open (init: JournalInit): Promise<Journal> {
    const state = await JournalState.open(journalIndexPath(init.paths))
    let events: EventLedger
    try {
      events = await openEventLedger({ dataDir: init.paths.data, scope: init.scope, clock: init.clock, idempotency: state.idempotency() })
    } catch (err) {
      await state.close()
      throw err
    }
    const rules = viewRulesOf(await readPolicy(init.paths.data))
    const journal = new Journal(init, events, state, new ViewReducer(init.paths.data, init.scope, rules, events.recovery))
    await journal.start()
    return journal
  }

  get merkle (): JournalState['merkle'] {
    return this.state.merkle
  }

  private get now (): number {
    return this.init.clock()
  }

  private async start (): Promise<void> {
    const lastBefore = this.events.lastLc
    const indexed = await this.state.indexedLc()
    const lifecycle: EventInput[] = [this.nodeEvent('memory.instance.started', `started:${this.events.runId}`, { pid: process.pid })]
    if (this.events.takeover !== undefined) {
      // A writer died holding the lock: its lease passes to this run (spec §10, leases.jsonl).
      lifecycle.push(this.nodeEvent('memory.handoff', `handoff:${this.events.runId}`, { from: this.events.takeover as unknown as Record<string, unknown> }))
    }
    await this.append(lifecycle)
    if (lastBefore > indexed || this.events.findings.length > 0) await this.replay(indexed, lastBefore)
    await this.markIndexed()
  }

  /**
   * Moves `indexed_lc` as far as is safe: to the last lc, but below the record events of every
   * store call still being applied, whatever event (heartbeat, memory.published, the next store)
   * triggered it. A crash then replays exactly what may be missing; replay is idempotent (the store
   * and the Merkle log skip what they hold, the view writer what is already written).
   */
  private async markIndexed (): Promise<void> {
    let lc = this.events.lastLc
    for (const { from } of this.applying) lc = Math.min(lc, from - 1)
    await this.state.setIndexedLc(lc)
  }

  /**
   * Applies what the ledger holds beyond the index (after a crash between a durable append and
   * the index write), then records the reconciliation as an event.
   */
  private async replay (indexed: number, upTo: number): Promise<void> {
    const records: StoredRecord[] = []
    const events: LedgerEvent[] = []
    for await (const event of this.events.readEvents(indexed + 1)) {
      if (event.lc > upTo) break
      events.push(event)
      const record = recordOfEvent(event)
      if (record !== null) records.push(record)
    }
    const result = await ingestRecords(this.init.store, records.map((r) => r.signed), { verifier: this.init.verifier, now: this.now })
    // Record events' keys are written with their Merkle leaves (journaled), so a crash in between
    // leaves keys missing for events beyond indexed_lc: every one of them is recorded here again.
    await this.applied(records, { events })
    await this.append([this.nodeEvent('memory.reconciled', `reconciled:${this.events.runId}`, {
      reason: 'recovery',
      from_lc: indexed + 1,
      to_lc: upTo,
      records: records.length,
      restored: result.stored.length,
      findings: this.events.findings.map((f) => f.id)
    })])
  }

  /** Subscribes to records newly stored; returns the unsubscribe function. */
  onStored (listener: StoredListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** Verifies, journals and stores records: the one write path for local, imported and received ones. */
  async ingest (inputs: readonly unknown[], source: RecordSource): Promise<IngestResult> {
    return await this.journaled(source, async (hooks) =>
      await ingestRecords(this.init.store, inputs, { verifier: this.init.verifier, now: this.now, ...hooks }))
  }

  /**
   * Stores records the network already verified (src/net verifies each received record once), so
   * they are journaled and stored without a second signature check (issue 4: ≤ 1.2 verifications
   * per message per node).
   */
  async acceptVerified (records: readonly VerifiedRecord[], source: RecordSource): Promise<IngestResult> {
    return await this.journaled(source, async (hooks) => await ingestVerified(this.init.store, records, { now: this.now, ...hooks }))
  }

  /**
   * Runs a store write with the journal's hooks: the fresh records' events are appended (durable)
   * before the index write; then the Merkle log, the listeners, and the views (from the evidence
   * ingest scored, not read again). Listeners hear of records before their views are written: a
   * round trip to a witness need not wait for two more fsync rounds, and `indexed_lc` stays below
   * these records until their views are written too (markIndexed), so a crash still replays them.
   * The call returns once its views are written.
   */
  private async journaled (source: RecordSource, write: (hooks: Required<Pick<IngestVerifiedOptions, 'beforeStore' | 'afterStore'>>) => Promise<IngestResult>): Promise<IngestResult> {
    let journaled: StoredRecord[] = []
    let events: LedgerEvent[] = []
    let scored: ReadonlyMap<string, MemoryEvidence> = new Map()
    let applying: Applying | undefined
    let result: IngestResult
    try {
      result = await write({
        beforeStore: async (fresh) => {
          journaled = fresh
          if (fresh.length === 0) return
          // Before the append: any lc it assigns is above this one.
          this.applying.add(applying = { from: this.events.lastLc + 1 })
          // Their idempotency keys go with the Merkle leaves (applied): one LevelDB write, not two.
          // Until then the ledger answers duplicates from its run keys, and `applying` keeps
          // indexed_lc below these events, so after a crash replay records the keys.
          events = await this.append(fresh.map((r) => recordEventOf(r, source)), { deferKeys: true })
        },
        afterStore: async (_stored, _trust, evidence) => { scored = evidence }
      })
    } catch (err) {
      // The events are durable even though the records were not stored: keep their keys now.
      if (events.length > 0) await this.state.recordKeys(events).catch(() => {})
      throw err
    }
    // A failure from here on leaves `applying` in place: indexed_lc stays below these records for
    // the rest of this run, and the next open replays them.
    await this.applied(journaled, { events, scored }, () => {
      for (const listener of this.listeners) listener(journaled, source)
    })
    if (applying !== undefined) this.applying.delete(applying)
    await this.markIndexed()
    return result
  }

  /**
   * After the index holds `records`: Merkle leaves in ledger order, then `indexed` (the listeners),
   * then the views, whose reduction joins the next round (ReductionRounds) with other calls' records.
   */
  private async applied (records: readonly StoredRecord[], { events = [], scored = new Map() }: { events?: readonly LedgerEvent[], scored?: ReadonlyMap<string, MemoryEvidence> }, indexed?: () => void): Promise<void> {
    if (records.length === 0 && events.length === 0) return
    // One write to the journal's LevelDB after the Merkle append (in call order, which is ledger
    // order): leaf positions, witness requests, the events' idempotency keys.
    await this.state.applyRecords(records.map((r) => r.id), { requests: witnessRequestsIn(records), events })
    if (records.length === 0) return
    // Requested first, so a listener that throws cannot keep the views from being written.
    const touched = ViewReducer.touchedBy(records)
    const reduced = touched.size === 0 ? Promise.resolve() : this.reductions.request(touched, scored)
    indexed?.()
    await reduced
  }

  /** Signs a checkpoint of the Merkle log when it grew since the last one (transparency-v1). */
  async checkpoint (): Promise<SignedCheckpoint | null> {
    const latest = await this.state.latestCheckpoint()
    const size = this.merkle.size
    // Never sign a size already signed (or smaller, after a repair quarantined records): a second
    // root for one size would be this node contradicting its own checkpoint (transparency-v1 §6).
    if (size === 0 || (latest !== null && latest.record.size >= size)) return latest
    const record = createCheckpoint({ log: this.init.logSigner.did, size, root: await this.merkle.root(), createdAt: new Date(this.now).toISOString() })
    const { id, signed } = signCheckpoint(record, this.init.logSigner.secretKey)
    // transparency-v1: a checkpoint's size is the number of record events before it in the ledger.
    // A store in flight may have appended its record events without their leaves yet: then this
    // checkpoint waits for the next heartbeat rather than land after records it does not count.
    let deferred = false
    const when = (): boolean => { deferred = this.applying.size > 0 || this.merkle.size !== size; return !deferred }
    await this.append([this.nodeEvent('memory.checkpointed', `checkpointed:${record.log}:${size}:${record.root}`, {
      id, checkpoint: signed as unknown as Record<string, unknown>
    }, this.init.logSigner.did)], { when })
    if (deferred) return latest
    await this.observeCheckpoint(signed)
    await this.state.setLatestCheckpoint(signed)
    return signed
  }

  /**
   * Keeps a checkpoint seen from any log; a second one of the same size with another root is proof
   * of misbehaviour and goes to coordination/conflicts.jsonl (DESIGN §4).
   */
  async observeCheckpoint (checkpoint: SignedCheckpoint): Promise<'new' | 'known' | 'conflict'> {
    const previous = await this.state.observedCheckpoint(checkpoint.record.log, checkpoint.record.size)
    if (previous === null) {
      await this.state.observeCheckpoint(checkpoint)
      return 'new'
    }
    const evidence = detectEquivocation(previous, checkpoint, this.init.verifier)
    if (evidence === null) return 'known'
    await appendConflict(this.init.paths.data, evidence, this.now)
    return 'conflict'
  }

  /** Records that the network published these records (spec §5 memory.published); once per record. */
  async recordPublished (records: ReadonlyArray<{ id: string, topic: string, peers: number }>): Promise<void> {
    await this.append(records.map(({ id, topic, peers }) => ({
      type: 'memory.published' as const,
      actor: 'node',
      owner: 'node',
      visibility: 'public' as const,
      idempotency_key: `memory.published:${id}`,
      causal_refs: [],
      payload: { id, topic, peers }
    })))
    await this.markIndexed()
  }

  /** Records checks of anchors' evidence (anchors-v1 §6): one memory.anchor_checked event per check. */
  async recordAnchorChecks (checks: ReadonlyArray<Record<string, unknown> & { anchor: string, checked_at: string }>): Promise<void> {
    await this.append(checks.map((check) => this.nodeEvent('memory.anchor_checked', `memory.anchor_checked:${check.anchor}:${check.checked_at}:${String(check.state)}`, check)))
    await this.markIndexed()
  }

  /** Records a memory selection's trace (FDR-Memory M-2), as its selecting actor; `key` makes it one event. */
  async recordSelection (actor: string, key: string, trace: Record<string, unknown>): Promise<void> {
    await this.append([this.nodeEvent('memory.selected', key, trace, actor)])
    await this.markIndexed()
  }

  /** A liveness mark of a long-running node (spec §5 memory.instance.heartbeat). */
  async heartbeat (payload: Record<string, unknown>): Promise<void> {
    await this.append([this.nodeEvent('memory.instance.heartbeat', `heartbeat:${this.events.runId}:${this.now}`, payload)])
    await this.markIndexed()
  }

  /** Records that the index was rebuilt or reconciled with the ledgers (spec §5 memory.reconciled). */
  async recordReconciled (payload: Record<string, unknown>): Promise<void> {
    await this.append([this.nodeEvent('memory.reconciled', `reconciled:${this.events.runId}:${String(payload.reason)}`, payload)])
    await this.markIndexed()
  }

  async close (): Promise<void> {
    try {
      await this.checkpoint()
      await this.append([this.nodeEvent('memory.instance.stopped', `stopped:${this.events.runId}`, { pid: process.pid })])
      await this.reductions.settled() // their memory.reduced keys go with the last indexed_lc write
      await this.markIndexed()
    } finally {
      await this.reductions.settled()
      await this.views.close()
      await this.events.close()
      await this.state.close()
    }
  }

  private async append (inputs: EventInput[], options?: AppendOptions): Promise<LedgerEvent[]> {
    if (inputs.length === 0) return []
    const results = await this.events.append(inputs, options)
    return results.flatMap((r) => r.appended ? [r.event] : [])
  }

  private nodeEvent (type: EventInput['type'], key: string, payload: Record<string, unknown>, actor = 'node'): EventInput {
    return { type, actor, owner: actor, visibility: 'private', idempotency_key: key, causal_refs: [], payload }
  }
}
