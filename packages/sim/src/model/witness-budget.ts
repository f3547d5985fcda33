/*
 * The witness budget as the model plays it (the daemon's flood bound): a witness answers drawn
 * selections and strangers' requests for at most `perAuthorPerHour` memories of one author per hour
 * and `perMinute` in all; beyond, it skips them (counted). Windows are fixed clock hours and minutes
 * of virtual time. A flooding author therefore exhausts its own share of each witness first.
 */

export interface BudgetLimits {
  perAuthorPerHour: number
  perMinute: number
}

const HOUR_MS = 3_600_000
const MINUTE_MS = 60_000

export class WitnessBudget {
  private readonly byAuthor = new Map<number, number>()
  private readonly byMinute = new Map<number, number>()
  /** Answers skipped because a limit was reached. */
  skipped = 0

  constructor (private readonly limits: BudgetLimits, private readonly agents: number) {}

  /** Whether `witness` may answer a memory of `author` at virtual `nowMs`; counts it when it may. */
  take (witness: number, author: number, nowMs: number): boolean {
    const hour = Math.floor(nowMs / HOUR_MS)
    const minute = Math.floor(nowMs / MINUTE_MS)
    const authorKey = (hour * this.agents + witness) * this.agents + author
    const minuteKey = minute * this.agents + witness
    const a = this.byAuthor.get(authorKey) ?? 0
    const m = this.byMinute.get(minuteKey) ?? 0
    if (a >= this.limits.perAuthorPerHour || m >= this.limits.perMinute) {
      this.skipped++
      return false
    }
    this.byAuthor.set(authorKey, a + 1)
    this.byMinute.set(minuteKey, m + 1)
    return true
  }
}
