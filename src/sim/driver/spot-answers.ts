import { performance } from 'node:perf_hooks'
import type { InboxItem } from '../../api/index.js'
import { createSimRandom, verdictOf, type Plan, type Role, type Scenario, type SimRandom } from '../scenario/index.js'
import { sleep } from '../pools/index.js'
import type { LiveNodes } from './live-nodes.js'
import { attestationKey, type MemoryObservation, type Observations } from './observations.js'

/*
 * The witnesses' side of spot checks on real nodes (docs/trust.md §5a). The observers' daemons run
 * the node's own spot-check service (src/daemon/spot-checks.ts): they draw witnesses and sign the
 * requests. What the daemon leaves to a witness — whether and how to answer — the driver plays here,
 * as it plays the authors' planned answers: by the witness's role (behaviour.ts verdictOf, the same
 * function the model engine's spot checks answer by), after the scenario's review time, one answer
 * per request that reaches the witness's inbox. A request counts as a spot check when its requester
 * is one of the observers' agents (authors ask only for their own memories, and observers author
 * nothing).
 */

/** The seed stream of the witnesses' spot-check verdicts and delays (apart from the plan's). */
const SPOT_STREAM = 0x5b07
/** How long without a new spot-check request the answers count as drained. */
const QUIET_MS = 1000

export class SpotAnswers {
  private readonly random: SimRandom
  private readonly observerAgents: Set<string>
  private readonly answering: Array<Promise<void>> = []
  /** Requests already answered, by `${request}|${node}`: an inbox event is not a new request. */
  private readonly seen = new Set<string>()

  constructor (
    private readonly scenario: Scenario,
    private readonly plan: Plan,
    private readonly nodes: LiveNodes,
    private readonly observations: Observations,
    private readonly memoryOf: (id: string) => MemoryObservation | undefined
  ) {
    this.random = createSimRandom((scenario.seed ^ SPOT_STREAM) >>> 0)
    this.observerAgents = new Set(plan.observers.map((o) => nodes.agent(o)))
  }

  /** An inbox event at `node`: answered when it is an observer's spot check about a planned memory. */
  onInbox (node: number, item: InboxItem): void {
    if (!this.observerAgents.has(item.requester)) return
    const key = `${item.request}|${node}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.observations.spotChecks.asked++
    const memory = this.memoryOf(item.memory)
    if (memory === undefined) return
    const verdict = verdictOf({
      scenario: this.scenario,
      witnessRole: this.plan.roles[node] as Role,
      authorRole: this.plan.roles[memory.author] as Role,
      truth: memory.truth,
      at: memory.at,
      draw: this.random.next()
    })
    const delayMinutes = (this.scenario.behaviour.reviewSeconds / 60) * (0.5 + this.random.next())
    if (verdict === null) return
    this.answering.push(this.answer(node, item.memory, verdict, delayMinutes).catch((err: unknown) => {
      this.observations.notes.push(`spot-check answer of node ${node}: ${err instanceof Error ? err.message : String(err)}`)
    }))
  }

  /**
   * Every answer has been given (or failed), including those of requests that came in while waiting
   * (an observer escalates on a dispute): waits until a quiet second passes with no new request.
   */
  async drained (): Promise<void> {
    for (let given = -1; given !== this.answering.length;) {
      given = this.answering.length
      await Promise.all(this.answering)
      await sleep(QUIET_MS)
    }
  }

  private async answer (node: number, memory: string, verdict: 'confirm' | 'dispute', delayMinutes: number): Promise<void> {
    await sleep(delayMinutes * this.scenario.timeScale.realSecondsPerMinute * 1000)
    if (!this.nodes.isOnline(node)) return
    const witness = this.nodes.node(node)
    const key = attestationKey(memory, witness.info.agent)
    // Delivery is measured over every attestation given, as on the model engine (its spot answers too).
    this.observations.attestations.set(key, { memory, witness: node, verdict, sentAt: performance.now(), arrivals: new Map() })
    await witness.ops.attest({ memory, verdict }, witness.signer)
    this.observations.spotChecks.answered++
  }
}
