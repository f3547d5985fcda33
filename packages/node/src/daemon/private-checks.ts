import { randomBytes } from 'node:crypto'
import { acceptsPopulation, drawFractionOfProof, drawShardRefusal, holdersEstimate, isDrawn, privateCheckProbability, shardEstimate, WITNESS_DRAW } from '../draw/index.js'
import { NODE_RECORD_FAST_PATHS } from '../fast-crypto/index.js'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import type { LocalNode } from '../node/index.js'
import type { AttestationRecord, PrivateCheckState } from '../schema/index.js'
import { drawKeyIntroducedAfter, type KeyIdentities } from '../trust/index.js'
import { PRIVATE_CHECK_MIN_REPUTATION } from './constants.js'
import type { WitnessCounters } from './witness-counters.js'

/*
 * Private checks (protocols/witness-draw-v1.md): `privateCheckDelayMs` after a memory arrives from
 * the network, when this node holds no drawn answer it accepts, it asks — with probability
 * privateCheckProbability(N̂ / c), c the node's shard count (its `shard-count` setting, else
 * shardCountFor(N̂)), so about one of the nodes that hold a memory (its shard's) asks per memory —
 * one reputable witness of its own choosing, with a request its own agent signs. That witness counts
 * as independent at this node only (the own-request rule, src/trust). What the node decided is kept
 * (PrivateCheckLog) for the explanation: an unchecked memory says that no private check was made,
 * and a check that failed is counted (`private_checks.failed`) and logged, never dropped unseen.
 * No cap on asking: the probability keeps the network's total near one per memory.
 */

/** What this node did about one memory's private check. */
export type PrivateCheckOutcome = 'pending' | 'not-needed' | 'asked' | 'not-asked' | 'no-witness' | 'failed'

/** Memories whose outcome the log keeps; the oldest are forgotten. @default 4096 */
const REMEMBERED_MEMORIES = 4096

/** The private-check outcome of the memories received lately (bounded; a restarted daemon starts empty). */
export class PrivateCheckLog {
  private readonly outcomes = new Map<string, PrivateCheckOutcome>()
  set (memory: string, outcome: PrivateCheckOutcome): void {
    this.outcomes.delete(memory)
    this.outcomes.set(memory, outcome)
    while (this.outcomes.size > REMEMBERED_MEMORIES) this.outcomes.delete(this.outcomes.keys().next().value as string)
  }

  get (memory: string): PrivateCheckOutcome | undefined { return this.outcomes.get(memory) }

  /**
   * What the explanation says of `memory` (NodeTrust.usePrivateChecks): `asked`, `not-sampled` when
   * the node's randomness said no; undefined when it did not ask otherwise (pending, a drawn answer
   * came, no reputable witness to ask, the check failed, its own memory, or forgotten): the
   * explanation then says that no private check was made by this node.
   */
  stateOf (memory: string): PrivateCheckState | undefined {
    const outcome = this.outcomes.get(memory)
    return outcome === 'asked' ? 'asked' : outcome === 'not-asked' ? 'not-sampled' : undefined
  }
}

export interface PrivateCheckInit {
  node: LocalNode
  keystore: Keystore
  /** The node's own agents; the first one signs the requests. */
  hostedAgents: () => Promise<string[]>
  /** The node's estimate N̂ of the agents that could be drawn. */
  population: () => Promise<number>
  /**
   * The node's shard count now (the `shard-count` setting, else shardCountFor(N̂)): a memory's
   * holders are the nodes of its author's shard, about N̂ / count. @default shardCountFor(N̂)
   */
  shardCount?: () => number
  log: PrivateCheckLog
  counters: WitnessCounters
  logger: Logger
  /** @default WITNESS_DRAW.privateCheckDelayMs */
  delayMs?: number
  /** A uniform number in [0, 1): the node's own randomness, which an author cannot predict. @default nodeRandom */
  random?: () => number
}

/** The memory a drawn answer is judged for. */
export interface CheckedMemory {
  id: string
  author: string
  /** Its `created_at`: a draw counts only by a key its identity had before then (W11). */
  createdAt: string
}

/**
 * Whether `record`'s draw (verified at ingest) for `memory` counts as drawn at a node whose estimate is
 * `estimate` and whose shard count is `shardCount` (its setting; absent: shardCountFor(estimate)):
 * the rules the score applies (src/trust/drawn-witnesses.ts): W11, W12, W7 and W5.
 */
export function isAcceptedDraw (record: AttestationRecord, estimate: number, memory: CheckedMemory, identities?: KeyIdentities, shardCount?: number): boolean {
  const draw = record.draw
  if (draw === undefined || drawShardRefusal(estimate, draw.shards, record.witness, memory.author, shardCount) !== undefined) return false
  if (drawKeyIntroducedAfter(record.witness, memory.createdAt, memory.id, identities) !== undefined) return false
  if (!acceptsPopulation(draw.population, shardEstimate(estimate, draw.shards))) return false
  const fraction = drawFractionOfProof(new Uint8Array(Buffer.from(draw.proof, 'base64')), NODE_RECORD_FAST_PATHS)
  return isDrawn(fraction, draw.population)
}

/**
 * Whether the drawn answers a node holds excuse its private check (witness-draw-v1 W8): an
 * attestation by a witness other than the author, drawn at this node, by a witness whose reputation
 * here is above 0. A drawn witness outside the node's reputation graph weighs nothing in its score,
 * so its answer alone must not stop the node from checking. `weighs` is asked only about accepted
 * draws, so the reputation table is read only when there is one.
 */
export async function hasWeightyDrawnAnswer (
  attestations: readonly AttestationRecord[], memory: CheckedMemory, estimate: number,
  weighs: (did: string) => Promise<boolean>, identities?: KeyIdentities, shardCount?: number
): Promise<boolean> {
  for (const a of attestations) {
    if (a.witness === memory.author || !isAcceptedDraw(a, estimate, memory, identities, shardCount)) continue
    if (await weighs(a.witness)) return true
  }
  return false
}

/** A uniform number in [0, 1) from the operating system's CSPRNG: 48 random bits over 2^48. */
export function nodeRandom (): number {
  return randomBytes(6).readUIntBE(0, 6) / 2 ** 48
}

/** Starts the service; returns the function that stops it. */
export function startPrivateChecks (init: PrivateCheckInit): () => void {
  const delayMs = init.delayMs ?? WITNESS_DRAW.privateCheckDelayMs
  const random = init.random ?? nodeRandom
  const timers = new Set<NodeJS.Timeout>()
  let stopped = false
  let queue = Promise.resolve()
  const enqueue = (memory: string, task: () => Promise<void>): void => {
    queue = queue.then(async () => { if (!stopped) await task() }).catch((err: unknown) => {
      // Not dropped unseen: counted, logged, and the explanation says no private check was made.
      init.counters.private_checks.failed++
      init.log.set(memory, 'failed')
      init.logger.warn('private check failed', { memory, error: err })
    })
  }

  const check = async (memory: string, author: string, createdAt: string): Promise<void> => {
    const own = await init.hostedAgents()
    const requester = own[0]
    if (requester === undefined || own.includes(author)) { init.log.set(memory, 'not-needed'); return }
    const estimate = await init.population()
    const attestations = (await init.node.store.attestationsFor(memory)).map((a) => a.signed.record)
    const weighs = async (did: string): Promise<boolean> => await init.node.trust.reputationOf(did) > 0
    // W12 and W8 under the node's own count, the one its own draw uses.
    const shardCount = init.shardCount?.()
    if (await hasWeightyDrawnAnswer(attestations, { id: memory, author, createdAt }, estimate, weighs, init.node.trust.keyIdentities(), shardCount)) { init.log.set(memory, 'not-needed'); return }
    init.counters.private_checks.due++
    if (random() >= privateCheckProbability(holdersEstimate(estimate, shardCount))) { init.log.set(memory, 'not-asked'); return }
    // The witness: reputable here, neither the author, one of ours, one the author asked, nor one that has answered already.
    const asked = (await init.node.store.witnessRequestsFor(memory))
      .filter((r) => r.signed.record.requester === author)
      .flatMap((r) => r.signed.record.witnesses ?? [])
    const excluded = new Set([author, ...own, ...asked, ...attestations.map((a) => a.witness)])
    const eligible = (await init.node.trust.reputableAgents(PRIVATE_CHECK_MIN_REPUTATION)).filter((did) => !excluded.has(did))
    if (eligible.length === 0) {
      init.log.set(memory, 'no-witness')
      init.logger.debug('private check: no reputable witness to ask', { memory })
      return
    }
    const witness = eligible[Math.min(eligible.length - 1, Math.floor(random() * eligible.length))] as string
    const key = await init.keystore.load(requester)
    try {
      await init.node.requestWitnesses({ memory, to: [witness] }, { did: key.did, secretKey: key.secretKey })
    } finally {
      key.secretKey.fill(0)
    }
    init.counters.private_checks.asked++
    init.log.set(memory, 'asked')
    init.logger.info('private check asked', { memory, witness })
  }

  const unsubscribe = init.node.pipeline.onStored((records, source) => {
    if (source === 'local' || source === 'import' || source === 'replay') return
    for (const { id, signed: { record } } of records) {
      if (record.kind !== 'memory') continue
      init.log.set(id, 'pending')
      const timer = setTimeout(() => {
        timers.delete(timer)
        enqueue(id, async () => { await check(id, record.author.agent_id, record.created_at) })
      }, delayMs)
      timers.add(timer)
    }
  })

  return () => {
    stopped = true
    unsubscribe()
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
  }
}
