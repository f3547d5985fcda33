import { performance } from 'node:perf_hooks'
import type { InboxItem } from 'isnad/engine'
import { createSimRandom, verdictOf, type Plan, type Role, type Scenario, type SimRandom } from '../scenario/index.js'
import { sleep } from '../pools/index.js'
import type { LiveNodes } from './live-nodes.js'
import { attestationKey, type MemoryObservation, type Observations } from './observations.js'

/*
 * The witnesses' side of the witness draw and of private checks on real nodes (docs/simulation.md,
 * "The witness draw"). Every daemon evaluates the draw for its agent on every memory it receives and
 * puts a drawn memory in its inbox (`drawn`), and asks a witness privately when no drawn answer came;
 * what the daemon leaves to the witness — whether and how to answer — the driver plays here, as it
 * plays the authors' planned answers: by the witness's role (behaviour.ts verdictOf, the same
 * function the model engine answers by, `drawn` for a drawn item), after the scenario's review time,
 * one answer per witness and memory. A request counts as a private check when its requester is not
 * the memory's author (an author asks only about its own memories).
 */

/** The seed stream of the drawn and privately asked witnesses' verdicts and delays (apart from the plan's). */
const CHECK_STREAM = 0x5b07
/** How long without a new drawn item or private check the answers count as drained. */
const QUIET_MS = 1000

export class CheckedAnswers {
  private readonly random: SimRandom
  private readonly answering: Array<Promise<void>> = []
  /** Items already taken, by `${memory}|${node}`: a witness answers a memory once. */
  private readonly seen = new Set<string>()
  /** Private-check requests seen, by id. */
  private readonly privateRequests = new Set<string>()

  constructor (
    private readonly scenario: Scenario,
    private readonly plan: Plan,
    private readonly nodes: LiveNodes,
    private readonly observations: Observations,
    private readonly memoryOf: (id: string) => MemoryObservation | undefined
  ) {
    this.random = createSimRandom((scenario.seed ^ CHECK_STREAM) >>> 0)
  }

  /** An inbox event at `node`: answered when it is a draw or a private check about a planned memory. */
  onInbox (node: number, item: InboxItem): void {
    const memory = this.memoryOf(item.memory)
    if (memory === undefined) return
    const drawn = item.drawn === true
    const author = this.nodes.agent(memory.author)
    if (!drawn && item.requester === author) return // the author's own request: the plan answers it
    if (!drawn && item.request !== undefined && !this.privateRequests.has(item.request)) {
      this.privateRequests.add(item.request)
      this.observations.witnessLoad.requests++
      this.observations.witnessLoad.privateChecks++
    }
    const key = `${item.memory}|${node}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    if (drawn) this.observations.witnessLoad.drawn++
    // A witness the author asked answers by the plan (once, with its draw when it is drawn too).
    const planned = this.plan.memories[memory.serial]
    if (planned?.answers.some((a) => a.witness === node) === true) return
    const verdict = verdictOf({
      scenario: this.scenario,
      witnessRole: this.plan.roles[node] as Role,
      authorRole: this.plan.roles[memory.author] as Role,
      truth: memory.truth,
      at: memory.at,
      draw: this.random.next(),
      drawn
    })
    const delayMinutes = (this.scenario.behaviour.reviewSeconds / 60) * (0.5 + this.random.next())
    if (verdict === null) return
    this.answering.push(this.answer(node, item.memory, verdict, delayMinutes, drawn).catch((err: unknown) => {
      this.observations.notes.push(`${drawn ? 'drawn' : 'private-check'} answer of node ${node}: ${err instanceof Error ? err.message : String(err)}`)
    }))
  }

  /** Every answer has been given (or failed), including those of items that came in while waiting: waits for a quiet second. */
  async drained (): Promise<void> {
    for (let given = -1; given !== this.answering.length;) {
      given = this.answering.length
      await Promise.all(this.answering)
      await sleep(QUIET_MS)
    }
  }

  private async answer (node: number, memory: string, verdict: 'confirm' | 'dispute', delayMinutes: number, drawn: boolean): Promise<void> {
    await sleep(delayMinutes * this.scenario.timeScale.realSecondsPerMinute * 1000)
    if (!this.nodes.isOnline(node)) return
    const witness = this.nodes.node(node)
    const key = attestationKey(memory, witness.info.agent)
    if (this.observations.attestations.has(key)) return
    // Delivery is measured over every attestation given, as on the model engine.
    this.observations.attestations.set(key, { memory, witness: node, verdict, sentAt: performance.now(), arrivals: new Map() })
    await witness.ops.call('attest', { id: memory, verdict, as: witness.info.agent })
    if (drawn) this.observations.witnessLoad.drawnAnswers++
  }
}
