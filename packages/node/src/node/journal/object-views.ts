import type { EventInput } from '../../ledger/index.js'
import type { TrustSetting } from '../../reputation/index.js'
import type { RecordStore } from '../../record-index/index.js'
import type { ScoredEvidence } from '../trust/memory-evidence.js'
import type { BatchViews, JournaledBatch } from '../pipeline/pipeline.js'
import { ViewReducer } from './object-view-reducer.js'
import { ReductionRounds } from './reduction-rounds.js'

/** What the views need of the ledger: their rounds' `memory.reduced` events kept, and a batch settled once its views are written. */
export interface ViewLedger<B extends JournaledBatch> {
  recordReductions: (reduced: EventInput[]) => Promise<void>
  settleBatch: (batch: B) => Promise<void>
}

export interface ObjectViewsInit<B extends JournaledBatch> {
  reducer: ViewReducer
  store: RecordStore
  clock: () => number
  ledger: ViewLedger<B>
}

/**
 * The node's object views (`views/`, docs/views.md), owned here and nowhere else: which memories a
 * batch touches, the rounds that reduce them (ReductionRounds: one round at a time, later requests
 * join the next), what the round writes (ViewReducer, over ledger/object-views), the trust the views
 * carry, rounds held for records nobody waits on, and each batch settled once its views are written.
 */
export class ObjectViews<B extends JournaledBatch> implements BatchViews<B> {
  private readonly rounds: ReductionRounds
  /** Batches whose views were deferred, until they are settled: `settled` waits for them. */
  private readonly settling = new Set<Promise<void>>()
  /** The node's trust setting, for the trust views carry (useTrustSetting); the defaults until given. */
  private trustSetting: () => Promise<TrustSetting> = async () => ({})

  constructor (private readonly init: ObjectViewsInit<B>) {
    this.rounds = new ReductionRounds(async (memoryIds, scored, causes) => {
      const { reducer, store, clock, ledger } = this.init
      await ledger.recordReductions(await reducer.reduce(store, memoryIds, clock(), scored, await this.trustSetting(), causes))
    })
  }

  /**
   * The node's trust setting (policy, reputation, identities): views are scored under it, as the
   * pipeline scores what it stores. Given by the node once its trust setting exists, which is after
   * the journal opens and before any record is stored (LocalNode).
   */
  useTrustSetting (setting: () => Promise<TrustSetting>): void {
    this.trustSetting = setting
  }

  /** The views of the memories the batch touched, in the next round; then the batch is settled. */
  async write (batch: B, scored: ReadonlyMap<string, ScoredEvidence>): Promise<void> {
    const touched = ViewReducer.touchedBy(batch.records)
    if (touched.size > 0) await this.rounds.request(touched, scored, { causes: batch.events.map((e) => e.event_id) })
    await this.init.ledger.settleBatch(batch)
  }

  /**
   * The batch's views in a held round (records from the network: nobody waits for their views), and
   * the batch settled once they are written. Never waits and never throws: should the round fail,
   * the batch stays below indexed_lc and the next open's recovery reduces it again.
   */
  defer (batch: B, scored: ReadonlyMap<string, ScoredEvidence>): void {
    const touched = ViewReducer.touchedBy(batch.records)
    const written = touched.size > 0
      ? this.rounds.request(touched, scored, { causes: batch.events.map((e) => e.event_id), hold: true })
      : Promise.resolve()
    const settling = written.then(async () => { await this.init.ledger.settleBatch(batch) }).catch(() => {})
    this.settling.add(settling)
    void settling.finally(() => this.settling.delete(settling))
  }

  /** The pipeline is idle: held rounds may run (ReductionRounds.release). */
  release (): void {
    this.rounds.release()
  }

  /**
   * Reduces these memories again now, reading their evidence from the store (`ledger repair`: their
   * view lines were lost, or no reducer line names them); resolves when the round is written.
   */
  async reduceAgain (memoryIds: Iterable<string>): Promise<void> {
    await this.rounds.request(memoryIds, new Map())
  }

  /** Every round requested so far written (held ones released), and the deferred batches settled. */
  async settled (): Promise<void> {
    await this.rounds.settled()
    while (this.settling.size > 0) await Promise.all([...this.settling])
  }

  /** Closes the view files (after `settled`). */
  async close (): Promise<void> {
    await this.init.reducer.close()
  }
}
