import { reputationFor, type MemoryAttestations } from '../../reputation/index.js'
import { SPOT_CHECK_DRAW } from '../../trust/index.js'
import { verdictOf, type Plan, type PlannedVerdict, type Role, type Scenario } from '../scenario/index.js'
import type { FastRandom } from './fast-random.js'

/*
 * The observers' spot checks in the model engine (issue 18, docs/trust.md §5a): when a memory reaches
 * an observer, the observer asks SPOT_CHECKS_PER_MEMORY witnesses of its own choosing — drawn at
 * random among the agents it finds reputable (reputation ≥ SPOT_MIN_REPUTATION from its roots over
 * the attestations it holds then), leaving out the author, the witnesses the author asked and itself.
 * The witnesses answer by their role (behaviour.ts verdictOf, as to any request): honest ones by the
 * truth, lazy ones at their answer rate, colluders confirm their circle's memories and judge honestly
 * otherwise, Sybils confirm their ring. What the observer then counts is src/trust's rule, not this
 * file's: a confirm by a witness its own request addressed, given after the request.
 */

/** Witnesses an observer asks about each memory it receives: the node's draw (src/trust SPOT_CHECK_DRAW, which src/daemon/spot-checks.ts uses). @default 3 */
export const SPOT_CHECKS_PER_MEMORY = SPOT_CHECK_DRAW.perMemory

/**
 * Witnesses an observer asks more, once, when one of its first SPOT_CHECKS_PER_MEMORY answers is a
 * dispute: its own sample disagrees, and a larger one tells an honest witness's mistake (a true
 * memory, one wrong dispute) from a circle that got one of its own drawn (a false memory, one wrong
 * confirm). @default 2
 */
export const SPOT_ESCALATION = SPOT_CHECK_DRAW.escalation

/** The reputation a witness needs to be drawn: a confirm below it could not make Attested alone (MIN_CONFIRM_WEIGHT). @default 0.5 */
export const SPOT_MIN_REPUTATION = SPOT_CHECK_DRAW.minReputation

/** Simulated minutes an observer's reputation table is reused before it is recomputed over what it holds. @default 0.1 */
export const SPOT_REFRESH_MINUTES = 0.1

export interface SpotAnswer {
  witness: number
  /** null: the witness never answers (a lazy witness skipping it). */
  verdict: PlannedVerdict | null
  delayMinutes: number
}

interface ObserverTable {
  at: number
  reputation: Float64Array
}

export class SpotChecks {
  private readonly tables = new Map<number, ObserverTable>()

  constructor (
    private readonly scenario: Scenario,
    private readonly plan: Plan,
    private readonly dids: readonly string[],
    private readonly random: FastRandom,
    private readonly perMemory = SPOT_CHECKS_PER_MEMORY
  ) {}

  /**
   * Whom `observer` asks about memory `serial` at virtual `nowMs`, and what each will answer.
   * `held` gives the attestations the observer holds then, by memory (recomputed at most every
   * SPOT_REFRESH_MINUTES).
   */
  draw (observer: number, serial: number, nowMs: number, held: () => Iterable<MemoryAttestations>, count = this.perMemory, drawnBefore: readonly number[] = []): SpotAnswer[] {
    const memory = this.plan.memories[serial]
    if (memory === undefined) return []
    const reputation = this.reputationAt(observer, nowMs, held)
    const excluded = new Set([memory.author, observer, ...memory.answers.map((a) => a.witness), ...drawnBefore])
    const eligible: number[] = []
    for (let i = 0; i < this.plan.roles.length; i++) {
      if (!excluded.has(i) && (reputation[i] as number) >= SPOT_MIN_REPUTATION) eligible.push(i)
    }
    const take = Math.min(count, eligible.length)
    const chosen: number[] = []
    for (let k = 0; k < take; k++) {
      const j = k + Math.floor(this.random.next() * (eligible.length - k))
      const pick = eligible[j] as number
      eligible[j] = eligible[k] as number
      eligible[k] = pick
      chosen.push(pick)
    }
    const authorRole = this.plan.roles[memory.author] as Role
    return chosen.map((witness) => ({
      witness,
      verdict: verdictOf({ scenario: this.scenario, witnessRole: this.plan.roles[witness] as Role, authorRole, truth: memory.truth, at: memory.at, draw: this.random.next() }),
      delayMinutes: (this.scenario.behaviour.reviewSeconds / 60) * (0.5 + this.random.next())
    }))
  }

  private reputationAt (observer: number, nowMs: number, held: () => Iterable<MemoryAttestations>): Float64Array {
    const cached = this.tables.get(observer)
    if (cached !== undefined && nowMs - cached.at < SPOT_REFRESH_MINUTES * 60_000) return cached.reputation
    const roots = [observer, ...this.plan.trustRoots].map((i) => this.dids[i] as string)
    const table = reputationFor(held(), { policy: 'isnad-reputation', roots })
    const reputation = new Float64Array(this.dids.length)
    this.dids.forEach((did, i) => { reputation[i] = table === undefined ? 0 : table.lookup(did) })
    this.tables.set(observer, { at: nowMs, reputation })
    return reputation
  }
}
