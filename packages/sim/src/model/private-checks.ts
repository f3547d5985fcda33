import { reputationFor, type MemoryAttestations } from 'isnad/engine'
import { verdictOf, type Plan, type PlannedVerdict, type Role, type Scenario } from '../scenario/index.js'
import type { FastRandom } from './fast-random.js'

/*
 * A node's private check in the model engine (the witness draw's fallback): when, its delay after a
 * memory reached it, a node holds no answer from a drawn witness, it asks one witness of its own
 * choosing, drawn at random among the agents it finds reputable (reputation ≥ PRIVATE_MIN_REPUTATION
 * from its roots over the attestations it holds), leaving out the author, the witnesses the author
 * asked and itself. The witness answers by its role (behaviour.ts verdictOf, as to any request). What
 * the asking node then counts is src/trust's rule: a witness its own request addressed, before the
 * verdict, is independent there and only there.
 */

/** The reputation a privately asked witness needs: a confirm below it could not make Attested alone (MIN_CONFIRM_WEIGHT). @default 0.5 */
export const PRIVATE_MIN_REPUTATION = 0.5

/** Simulated minutes a reputation table is reused before it is computed again over what its node holds. @default 1 */
export const REPUTATION_REFRESH_MINUTES = 1

export interface PrivateAnswer {
  witness: number
  /** null: the witness never answers (a lazy witness skipping it). */
  verdict: PlannedVerdict | null
  delayMinutes: number
}

interface ReputationTable {
  at: number
  reputable: number[]
}

export class PrivateChecks {
  private readonly tables = new Map<number, ReputationTable>()

  constructor (
    private readonly scenario: Scenario,
    private readonly plan: Plan,
    private readonly dids: readonly string[],
    private readonly random: FastRandom
  ) {}

  /**
   * Whom node `asker` asks about memory `serial` at virtual `nowMs`, and what it will answer;
   * undefined when it finds nobody reputable to ask. `table` names whose reputation view the node
   * uses (an observer its own; every other node the plan's trust roots', shared: key -1), `held` the
   * attestations that view holds then (read at most every REPUTATION_REFRESH_MINUTES).
   */
  pick (asker: number, serial: number, nowMs: number, table: { key: number, roots: readonly number[], held: () => Iterable<MemoryAttestations> }, excluded: ReadonlySet<number>): PrivateAnswer | undefined {
    const memory = this.plan.memories[serial]
    if (memory === undefined) return undefined
    const reputable = this.reputableAt(table.key, table.roots, nowMs, table.held)
    const eligible = reputable.filter((i) => i !== memory.author && i !== asker && !excluded.has(i))
    if (eligible.length === 0) return undefined
    const witness = eligible[Math.floor(this.random.next() * eligible.length)] as number
    const authorRole = this.plan.roles[memory.author] as Role
    return {
      witness,
      verdict: verdictOf({ scenario: this.scenario, witnessRole: this.plan.roles[witness] as Role, authorRole, truth: memory.truth, at: memory.at, draw: this.random.next() }),
      delayMinutes: (this.scenario.behaviour.reviewSeconds / 60) * (0.5 + this.random.next())
    }
  }

  private reputableAt (key: number, rootNodes: readonly number[], nowMs: number, held: () => Iterable<MemoryAttestations>): number[] {
    const cached = this.tables.get(key)
    if (cached !== undefined && nowMs - cached.at < REPUTATION_REFRESH_MINUTES * 60_000) return cached.reputable
    const roots = rootNodes.map((i) => this.dids[i] as string)
    const table = reputationFor(held(), { policy: 'isnad-reputation', roots })
    const reputable: number[] = []
    if (table !== undefined) this.dids.forEach((did, i) => { if (table.lookup(did) >= PRIVATE_MIN_REPUTATION) reputable.push(i) })
    this.tables.set(key, { at: nowMs, reputable })
    return reputable
  }
}
