import type { SignatureVerifier } from '../../identity/index.js'
import {
  JsonlAppender, ledgerFilePath, openEventLedger, removePackLeftovers, strictEntries, withLineHash, writePackFile, type AppendOptions, type EventInput, type EventLedger
} from '../../ledger/index.js'
import { readPolicy, viewRulesOf } from '../../ledger/meta/index.js'
import { createCheckpoint, detectEquivocation, signCheckpoint, type SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent, WitnessRequestRecord } from '../../schema/index.js'
import { SerialQueue, type RecordLocation, type RecordStore, type StoredRecord } from '../../record-index/index.js'
import type { JournaledBatch, RecordJournal } from '../pipeline/pipeline.js'
import { journalIndexPath, type NodePaths } from '../../home/index.js'
import { JournalState } from './journal-state.js'
import { batchEventsOf, type RecordSource } from './record-events.js'
import { ViewReducer } from './object-view-reducer.js'
import { ObjectViews } from './object-views.js'
import { appendConflict } from './conflicts.js'
import { appendedLocations, locatedRecordsOf } from './record-locations.js'

export function witnessRequestsIn (records: readonly StoredRecord[]): Array<StoredRecord<WitnessRequestRecord>> {
  return records.flatMap(({ id, signed }) => signed.record.kind === 'witness_request'
    ? [{ id, signed: { record: signed.record, signature: signed.signature } }]
    : [])
}

/** The key that signs this node's checkpoints: separate from the agents' keys (docs/architecture.md, "Keys"). */
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
 * The node's ledger (docs/architecture.md, "The data directory"): every state change is first a durable `diasync-v1-event`, then
 * applied to the LevelDB index, the Merkle log and the views. Records reach it only through the
 * ingest pipeline (src/node/pipeline), whose journal step and ledger-side index step it implements
 * (RecordJournal); it never calls the pipeline. The index never runs ahead of the ledger
 * (`indexed_lc`), so after a crash `open` finds what the ledger holds beyond it (pendingRecovery),
 * which the pipeline applies (IngestPipeline.recover) before the node serves anything.
 */
/** A batch of record events from the ledger on: `from` is no higher than the lowest lc they got. */
export interface JournalBatch extends JournaledBatch {
  readonly from: number
}

/** What the ledger holds beyond the index when the journal opens (a crash between append and index). */
export interface PendingRecovery {
  batch: JournalBatch
  indexed: number
  upTo: number
}

export class Journal implements RecordJournal<JournalBatch> {
  /** Batches whose record events may be in the ledger but not yet in the index, Merkle log and views. */
  private readonly applying = new Set<{ from: number }>()
  /** The views (views/, docs/views.md): reduced, written, deferred and settled by this one object. */
  readonly views: ObjectViews<JournalBatch>
  private pending: PendingRecovery | null = null
  /**
   * Batches whose record events are in the ledger and whose Merkle leaves are not yet: while any
   * is, the log's size is not the number of record events in the ledger (transparency-v1), so no
   * checkpoint may be signed. `sealing` holds new batches back while a checkpoint waits for these.
   */
  private readonly unlogged = new Set<JournalBatch>()
  private unloggedDrained: Array<() => void> = []
  private sealing: Promise<SignedCheckpoint | null> | undefined
  /** A batch journaled whose index write failed: its leaves come only with the next open's recovery. */
  private abandoned = false
  /** The indexed_lc writes, one after another (markIndexed). */
  private readonly indexedWrites = new SerialQueue()
  /** The spec's cursors ledger (Memory Format Spec V3.1 §10, coordination/cursors.jsonl): the history of peers' sync cursors. */
  private readonly cursors: JsonlAppender

  private constructor (
    private readonly init: JournalInit,
    readonly events: EventLedger,
    readonly state: JournalState,
    reducer: ViewReducer
  ) {
    this.cursors = new JsonlAppender(ledgerFilePath(init.paths.data, 'cursors'))
    this.views = new ObjectViews({ reducer, store: init.store, clock: init.clock, ledger: this })
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
    await removePackLeftovers(this.init.paths.data, this.init.scope)
    if (lastBefore > indexed || this.events.findings.length > 0) {
      this.pending = await this.recoverable(indexed, lastBefore)
      // indexed_lc stays below the recovered events until the pipeline has applied them.
      this.applying.add(this.pending.batch)
    }
    await this.append(lifecycle)
    await this.markIndexed()
  }

  /** What the ledger holds beyond the index, for IngestPipeline.recover; null when nothing is. */
  pendingRecovery (): PendingRecovery | null {
    return this.pending
  }

  /** After the pipeline recovered the pending batch: the reconciliation, recorded as an event. */
  async recovered (restored: number): Promise<void> {
    const pending = this.pending
    if (pending === null) return
    this.pending = null
    await this.append([this.nodeEvent('memory.reconciled', `reconciled:${this.events.runId}`, {
      reason: 'recovery',
      from_lc: pending.indexed + 1,
      to_lc: pending.upTo,
      records: pending.batch.records.length,
      restored,
      findings: this.events.findings.map((f) => f.id)
    })])
    await this.markIndexed()
  }

  /**
   * Moves `indexed_lc` as far as is safe: to the last lc, but below the record events of every
   * batch still being applied, whatever event (heartbeat, memory.published, the next batch)
   * triggered it. A crash then replays exactly what may be missing; replay is idempotent (the store
   * and the Merkle log skip what they hold, the view writer what is already written).
   */
  private async markIndexed (): Promise<void> {
    // One write at a time, its value read when it runs: LevelDB batches given at once commit in any
    // order (libuv's pool), and deferred view rounds settle many batches at once, so a lower
    // indexed_lc computed earlier could land after a higher one.
    await this.indexedWrites.run(async () => {
      let lc = this.events.lastLc
      for (const { from } of this.applying) lc = Math.min(lc, from - 1)
      await this.state.setIndexedLc(lc)
    })
  }

  /**
   * The record events beyond the index (their records, all of them: recovery skips what is stored).
   * A pack an event names is always there: it was durable before the event was appended.
   */
  private async recoverable (indexed: number, upTo: number): Promise<PendingRecovery> {
    const records: StoredRecord[] = []
    const events: LedgerEvent[] = []
    const locations = new Map<string, RecordLocation>()
    for await (const entry of strictEntries(this.events.readEntries(indexed + 1))) {
      const event = entry.value
      if (event.lc > upTo) break
      events.push(event)
      const located = await locatedRecordsOf(event, this.init.paths.data, entry) // with where the ledger holds them
      records.push(...located.records)
      for (const [id, location] of located.locations) locations.set(id, location)
    }
    return { batch: { records, events, from: indexed + 1, locations }, indexed, upTo }
  }

  /**
   * The pipeline's journal step (docs/ledger-packs.md): the batch's records stored once,
   * in packs (a file, written and synced first, or inside the event when small), and one
   * `memory.packed` event per pack appended and synced (durable) before the index write; witness
   * requests keep one event each on `bus/`. The events' idempotency keys go with the Merkle leaves
   * (logBatch): one LevelDB write, not two; until then the ledger answers duplicates from its run
   * keys, and the batch keeps indexed_lc below these events, so after a crash recovery records the
   * keys. A crash after a pack file and before its event leaves a pack no event names: never read.
   */
  async journalRecords (fresh: readonly StoredRecord[], source: RecordSource): Promise<JournalBatch> {
    // A checkpoint being signed waits for the batches already journaled; this one waits for it.
    while (this.sealing !== undefined) await this.sealing.catch(() => undefined)
    const { inputs, files, packs, ordered } = batchEventsOf(fresh, source)
    // Before the append: any lc it assigns is above this one.
    const batch: { records: readonly StoredRecord[], events: LedgerEvent[], from: number, locations?: ReadonlyMap<string, RecordLocation> } = { records: ordered, events: [], from: this.events.lastLc + 1 }
    this.applying.add(batch)
    this.unlogged.add(batch)
    try {
      for (const pack of files) await writePackFile(this.init.paths.data, this.init.scope, pack)
      // The ledger says where it wrote each line: the index keeps the records' locations, not their bytes.
      const results = await this.events.append(inputs, { deferKeys: true, locate: true })
      batch.events = results.flatMap((r) => r.appended ? [r.event] : [])
      batch.locations = appendedLocations(this.init.paths.data, this.init.scope, packs, results)
    } catch (err) {
      // Whether any event reached the disk is unknown: checkpoints wait for the next open's recovery.
      this.abandoned = true
      this.logged(batch)
      throw err
    }
    return batch
  }

  /** The index write failed after the append: the events are durable, so their keys are kept now. */
  async abandonBatch (batch: JournalBatch): Promise<void> {
    this.abandoned = true
    this.logged(batch)
    if (batch.events.length > 0) await this.state.recordKeys(batch.events)
  }

  /**
   * The ledger side of the index step: one write to the journal's LevelDB after the Merkle append
   * (in call order, which is ledger order): leaf positions, witness requests, the events' keys.
   */
  async logBatch (batch: JournalBatch): Promise<void> {
    try {
      if (batch.records.length === 0 && batch.events.length === 0) return
      await this.state.applyRecords(batch.records.map((r) => r.id), { requests: witnessRequestsIn(batch.records), events: batch.events })
    } catch (err) {
      this.abandoned = true
      throw err
    } finally {
      this.logged(batch)
    }
  }

  /** The batch's leaves are in the log (or never will be in this run): a waiting checkpoint may go on. */
  private logged (batch: JournalBatch): void {
    if (!this.unlogged.delete(batch) || this.unlogged.size > 0) return
    const waiting = this.unloggedDrained
    this.unloggedDrained = []
    for (const resume of waiting) resume()
  }

  /**
   * A view round's `memory.reduced` events (ObjectViews). Their keys go with the next indexed_lc
   * write: one LevelDB write instead of two. `applying` keeps indexed_lc below these events until
   * the keys are handed over (JournalState.deferKeys); a failed append leaves it in place, as a
   * failed batch does.
   */
  async recordReductions (reduced: EventInput[]): Promise<void> {
    const applying = { from: this.events.lastLc + 1 }
    this.applying.add(applying)
    this.state.deferKeys(await this.append(reduced, { deferKeys: true }))
    this.applying.delete(applying)
  }

  /** The batch is in the index, the Merkle log and the views: indexed_lc may pass its events. */
  async settleBatch (batch: JournalBatch): Promise<void> {
    this.applying.delete(batch)
    await this.markIndexed()
  }

  /** Signs a checkpoint of the Merkle log when it grew since the last one (transparency-v1). */
  async checkpoint (): Promise<SignedCheckpoint | null> {
    // One at a time; while one is signed, batches are held before their journal step (journalRecords).
    if (this.sealing !== undefined) return await this.sealing
    const sealing = this.seal()
    this.sealing = sealing
    try {
      return await sealing
    } finally {
      this.sealing = undefined
    }
  }

  /**
   * transparency-v1: a checkpoint's size is the number of record events before it in the ledger.
   * New batches wait (journalRecords) while the ones already journaled get their leaves, so the
   * checkpoint covers exactly what is durable and logged when it is signed, and a node under
   * constant writes still checkpoints on every heartbeat instead of deferring until it is idle.
   */
  private async seal (): Promise<SignedCheckpoint | null> {
    if (this.unlogged.size > 0) await new Promise<void>((resolve) => { this.unloggedDrained.push(resolve) })
    const latest = await this.state.latestCheckpoint()
    const size = this.merkle.size
    // Never sign a size already signed (or smaller, after a repair quarantined records): a second
    // root for one size would be this node contradicting its own checkpoint (transparency-v1 §6).
    if (size === 0 || (latest !== null && latest.record.size >= size)) return latest
    const record = createCheckpoint({ log: this.init.logSigner.did, size, root: await this.merkle.root(), createdAt: new Date(this.now).toISOString() })
    const { id, signed } = signCheckpoint(record, this.init.logSigner.secretKey)
    // Checked again as the line is appended: should a batch still be without its leaves (its index
    // write failed: recovery adds them at the next open), this checkpoint is not written at all
    // rather than land after records it does not count.
    let deferred = false
    const when = (): boolean => { deferred = this.abandoned || this.unlogged.size > 0 || this.merkle.size !== size; return !deferred }
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
   * of misbehaviour and goes to coordination/conflicts.jsonl (transparency-v1 §6.3).
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

  /**
   * Keeps a peer's sync cursor (sync-v1): the line in coordination/cursors.jsonl first (the history,
   * durable), then the current value in `index/journal`, which a crash in between leaves one page
   * behind (the next sync asks for that page again; its records are duplicates).
   */
  async saveSyncCursor (peerId: string, cursor: number): Promise<void> {
    await this.cursors.appendObjects([withLineHash({ peer: peerId, cursor, ts: new Date(this.now).toISOString() })])
    await this.state.setSyncCursor(peerId, cursor)
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
      await this.views.settled() // their memory.reduced keys go with the last indexed_lc write
      await this.markIndexed()
    } finally {
      // Each part is closed even when one before it fails (a full disk refuses the session's last
      // lease line): the index's lock must be released, or the home cannot be opened again in
      // this process once space is freed. The first failure is the one reported.
      await closeEach([
        async () => { await this.views.settled() },
        async () => { await this.cursors.close() },
        async () => { await this.views.close() },
        async () => { await this.events.close() },
        async () => { await this.state.close() }
      ])
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

/** Runs every step in order whatever the others do; rethrows the first failure after the last step. */
async function closeEach (steps: ReadonlyArray<() => Promise<void>>): Promise<void> {
  let failure: { err: unknown } | undefined
  for (const step of steps) {
    try {
      await step()
    } catch (err) {
      failure ??= { err }
    }
  }
  if (failure !== undefined) throw failure.err
}
