/*
 * The witness budget (protocols/witness-draw-v1.md, docs/limits.md): the flood bound on what a
 * node's witnesses take on. A node answers drawn selections and strangers' witness requests for at
 * most `perAuthorPerHour` memories of one author per hour and `perMinute` memories in all; beyond,
 * it skips them (logged and counted by the caller). A flooding author exhausts only its own share.
 * One memory takes one unit however many of the node's agents it concerns, and only once: a
 * memory both drawn and asked about by a stranger is one memory to answer.
 */

export interface WitnessBudgetLimits {
  /** Memories of one author taken on in any hour. */
  perAuthorPerHour: number
  /** Memories taken on in any minute, all authors together. */
  perMinute: number
}

/** Why a memory was not taken on. */
export type BudgetRefusal = 'per-author' | 'per-minute'

const HOUR_MS = 3_600_000
const MINUTE_MS = 60_000
/** Memories remembered as taken on (so a second reason to answer one takes nothing); the oldest are forgotten. @default 4096 */
const REMEMBERED_MEMORIES = 4096

/**
 * Sliding windows of the times memories were taken on: one per author (an hour long) and one for
 * all (a minute long). Time is passed in (`now`, ms), so the budget is tested without a clock.
 */
export class WitnessBudget {
  private readonly byAuthor = new Map<string, number[]>()
  private readonly all: number[] = []
  private readonly taken = new Set<string>()
  private prunedAt = 0

  constructor (private readonly limits: WitnessBudgetLimits) {}

  /**
   * Takes one unit for `memory` of `author` at `now`: undefined when taken (or taken before, for
   * this memory), else why not. A refused memory takes nothing, so it may be taken later.
   */
  take (memory: string, author: string, now: number): BudgetRefusal | undefined {
    if (this.taken.has(memory)) return undefined
    this.prune(now)
    const mine = this.byAuthor.get(author) ?? []
    dropBefore(mine, now - HOUR_MS)
    if (mine.length >= this.limits.perAuthorPerHour) return 'per-author'
    dropBefore(this.all, now - MINUTE_MS)
    if (this.all.length >= this.limits.perMinute) return 'per-minute'
    mine.push(now)
    this.byAuthor.set(author, mine)
    this.all.push(now)
    this.taken.add(memory)
    if (this.taken.size > REMEMBERED_MEMORIES) this.taken.delete(this.taken.values().next().value as string)
    return undefined
  }

  /** Forgets the authors with nothing in the last hour, at most once a minute: the map stays as large as the last hour's authors. */
  private prune (now: number): void {
    if (now - this.prunedAt < MINUTE_MS) return
    this.prunedAt = now
    for (const [author, times] of this.byAuthor) {
      dropBefore(times, now - HOUR_MS)
      if (times.length === 0) this.byAuthor.delete(author)
    }
  }
}

/** Removes the times at or before `cutoff` from the front of an ascending list. */
function dropBefore (times: number[], cutoff: number): void {
  let k = 0
  while (k < times.length && (times[k] as number) <= cutoff) k++
  if (k > 0) times.splice(0, k)
}
