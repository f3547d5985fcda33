import type { ScoredEvidence } from '../trust/memory-evidence.js'

/** One round's work: reduce these memories (with the evidence ingest scored, where known), asked for by these events. */
export type ReduceRound = (memoryIds: ReadonlySet<string>, scored: ReadonlyMap<string, ScoredEvidence>, causes: readonly string[]) => Promise<void>

/**
 * @default 4096 — memories a held round gathers before it runs anyway: bounds what it keeps in memory
 * and what a crash leaves to replay (the batches wait below indexed_lc until their round is written).
 */
export const HELD_ROUND_LIMIT = 4096

export interface RoundRequest {
  /** The ledger events of the batch that asks (the round's `memory.reduced` events name them as causes). */
  causes?: readonly string[]
  /**
   * The caller does not wait for the views (records from the network): the round may wait for
   * `release` (the pipeline has gone idle) and so gather the memories of many batches, each reduced
   * once. A request that is not held starts the round it joins.
   */
  hold?: boolean
}

interface Round {
  ids: Set<string>
  /**
   * The evidence and trust ingest scored, of the latest turn that scored each memory (requests may
   * arrive out of turn order); a memory asked for by a request without its scoring is read from the store.
   */
  scored: Map<string, ScoredEvidence>
  causes: string[]
  /** Every request so far was held: the round waits for release (or HELD_ROUND_LIMIT). */
  held: boolean
  settle: { resolve: () => void, reject: (err: unknown) => void }
  done: Promise<void>
}

/**
 * Group commit for view reductions (docs/views.md): at most one round runs at a
 * time, and every request made meanwhile joins the next round, so concurrent stores (a witness
 * request and its attestations arriving together, pipelined sync pages) share one append per view
 * file, one `memory.reduced` event and one reduction per memory, instead of one each per store.
 * Held requests (sync, gossip, fetch) let the next round wait until the pipeline is idle, so a
 * memory whose attestations arrive over many pages is reduced once, not once per page. A caller's
 * promise resolves when the round holding its memories is written (or rejects with its failure).
 */
export class ReductionRounds {
  private next: Round | undefined
  private running: Promise<void> | undefined
  private released: (() => void) | undefined

  constructor (private readonly run: ReduceRound, private readonly heldLimit = HELD_ROUND_LIMIT) {}

  request (memoryIds: Iterable<string>, scored: ReadonlyMap<string, ScoredEvidence>, options: RoundRequest = {}): Promise<void> {
    const round = this.next ??= newRound()
    for (const id of memoryIds) {
      const evidence = scored.get(id)
      if (!round.ids.has(id)) {
        round.ids.add(id)
        if (evidence !== undefined) round.scored.set(id, evidence)
        continue
      }
      // Asked again in this round: keep the later turn's scoring, or read the store when one is missing.
      const earlier = round.scored.get(id)
      if (evidence === undefined || earlier === undefined) round.scored.delete(id)
      else if (evidence.turn > earlier.turn) round.scored.set(id, evidence)
    }
    if (options.causes !== undefined) round.causes.push(...options.causes)
    if (options.hold !== true || round.ids.size >= this.heldLimit) this.release()
    this.running ??= this.drain()
    return round.done
  }

  /** The next round may run now, held or not: the pipeline went idle, a caller waits, or the node closes. */
  release (): void {
    if (this.next !== undefined) this.next.held = false
    const released = this.released
    this.released = undefined
    released?.()
  }

  /** Resolves when every round requested so far is written (or failed); a held one is released. */
  async settled (): Promise<void> {
    while (this.running !== undefined) {
      this.release()
      await this.running
    }
  }

  private async drain (): Promise<void> {
    // Runs after the caller's synchronous code: requests made in the same tick share the first round.
    await Promise.resolve()
    try {
      for (let round = this.next; round !== undefined; round = this.next) {
        if (round.held) {
          await new Promise<void>((resolve) => { this.released = resolve })
          continue // released: `next`, as it is now (it may have grown meanwhile), runs
        }
        this.next = undefined
        try {
          await this.run(round.ids, round.scored, round.causes)
          round.settle.resolve()
        } catch (err) {
          round.settle.reject(err)
        }
      }
    } finally {
      this.running = undefined
    }
  }
}

function newRound (): Round {
  let settle: Round['settle'] = { resolve: () => {}, reject: () => {} }
  const done = new Promise<void>((resolve, reject) => { settle = { resolve, reject } })
  done.catch(() => {}) // awaited by every caller of the round; never unhandled
  return { ids: new Set(), scored: new Map(), causes: [], held: true, settle, done }
}
