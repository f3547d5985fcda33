import type { MemoryEvidence } from '../memory-evidence.js'

/** One round's work: reduce these memories (with the evidence ingest scored, where known). */
export type ReduceRound = (memoryIds: ReadonlySet<string>, scored: ReadonlyMap<string, MemoryEvidence>) => Promise<void>

interface Round {
  ids: Set<string>
  /** Only for memories one caller asked for: with two, either's evidence may be stale, so the store is read. */
  scored: Map<string, MemoryEvidence>
  settle: { resolve: () => void, reject: (err: unknown) => void }
  done: Promise<void>
}

/**
 * Group commit for view reductions (DESIGN §4 views/): at most one round runs at a time, and every
 * request made meanwhile joins the next round, so concurrent stores (a witness request and its
 * attestations arriving together, pipelined sync pages) share one append per view file, one
 * `memory.reduced` append and one reduction per memory, instead of one each per store. A caller's
 * promise resolves when the round holding its memories is written (or rejects with its failure).
 */
export class ReductionRounds {
  private next: Round | undefined
  private running: Promise<void> | undefined

  constructor (private readonly run: ReduceRound) {}

  request (memoryIds: Iterable<string>, scored: ReadonlyMap<string, MemoryEvidence>): Promise<void> {
    const round = this.next ??= newRound()
    for (const id of memoryIds) {
      if (round.ids.has(id)) {
        round.scored.delete(id)
        continue
      }
      round.ids.add(id)
      const evidence = scored.get(id)
      if (evidence !== undefined) round.scored.set(id, evidence)
    }
    this.running ??= this.drain()
    return round.done
  }

  /** Resolves when every round requested so far is written (or failed). */
  async settled (): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  private async drain (): Promise<void> {
    // Runs after the caller's synchronous code: requests made in the same tick share the first round.
    await Promise.resolve()
    try {
      for (let round = this.next; round !== undefined; round = this.next) {
        this.next = undefined
        try {
          await this.run(round.ids, round.scored)
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
  return { ids: new Set(), scored: new Map(), settle, done }
}
