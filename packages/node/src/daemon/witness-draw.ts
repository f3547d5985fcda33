import { drawScopeOf, proveDraw, type DrawScope } from '../draw/index.js'
import { NODE_RECORD_FAST_PATHS } from '../fast-crypto/index.js'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import type { DrawnInbox, InboxEntry, LocalNode } from '../node/index.js'
import type { AnnouncerContext } from './inbox-announcer.js'
import { announceItem } from './inbox-announcer.js'
import type { WitnessBudget } from './witness-budget.js'
import type { WitnessCounters } from './witness-counters.js'

/*
 * The witness draw on a running node (protocols/witness-draw-v1.md): every memory that arrives
 * from the network, each of the node's agents but the author evaluates its own ECVRF draw for it
 * (its Ed25519 key, the node's population estimate). A drawn agent finds the memory in its inbox as
 * `drawn`; its attestation carries the draw (LocalNode.attest), which any node verifies from the
 * attestation alone. Nobody sends a request for it: a witness learns it is drawn by receiving the
 * memory. What a node takes on is bounded by the witness budget (witness-budget.ts), which also
 * bounds strangers' addressed requests (admitRequest).
 */

export interface WitnessDrawInit extends AnnouncerContext {
  node: LocalNode
  keystore: Keystore
  /** The node's own agents (the daemon's cached keystore listing). */
  hostedAgents: () => Promise<string[]>
  /** The node's estimate N̂ of the agents that could be drawn. */
  population: () => Promise<number>
  /** The node's shard count now (the `shard-count` setting, else shardCountFor(N̂)): the draw is within its shards (W12). */
  shardCount?: () => number
  inbox: DrawnInbox
  budget: WitnessBudget
  counters: WitnessCounters
  logger: Logger
  /** @default Date.now */
  clock?: () => number
}

export interface WitnessDraw {
  /** The witness budget's verdict on a stored request's inbox item (false: skipped, left out of the inbox). */
  admitRequest: (requestId: string, item: InboxEntry) => Promise<boolean>
  stop: () => void
}

/** Starts the service on `init.node`'s pipeline. */
export function startWitnessDraw (init: WitnessDrawInit): WitnessDraw {
  const clock = init.clock ?? Date.now
  let stopped = false
  let queue = Promise.resolve()
  const enqueue = (task: () => Promise<void>): void => {
    queue = queue.then(async () => { if (!stopped) await task() }).catch((err: unknown) => {
      init.logger.warn('witness draw failed', { error: err })
    })
  }

  /** Which of the node's agents the draw chose for `memory`, with the scope each was drawn in. */
  const drawnAgents = async (memory: string, author: string): Promise<Array<{ did: string, scope: DrawScope }>> => {
    const agents = (await init.hostedAgents()).filter((did) => did !== author)
    if (agents.length === 0) return []
    init.counters.memories++
    const estimate = await init.population()
    const drawn: Array<{ did: string, scope: DrawScope }> = []
    for (const did of agents) {
      // W12: only the agents of the author's shard are drawn (the others hold its memory only by a follow).
      const scope = drawScopeOf(estimate, did, author, init.shardCount?.())
      if (scope === undefined) continue
      // An encrypted key needs its passphrase: that agent is not drawn on this node (it can still answer requests).
      const key = await init.keystore.load(did).catch(() => null)
      if (key === null) continue
      try {
        if (proveDraw(key.secretKey, memory, scope.population, NODE_RECORD_FAST_PATHS).drawn) drawn.push({ did, scope })
      } finally {
        key.secretKey.fill(0)
      }
    }
    return drawn
  }

  const draw = async (memory: string, author: string): Promise<void> => {
    const drawn = await drawnAgents(memory, author)
    if (drawn.length === 0) return
    const refused = init.budget.take(memory, author, clock())
    if (refused !== undefined) {
      init.counters.skipped[refused]++
      init.logger.info('witness draw skipped: over the witness budget', { memory, author, limit: refused, agents: drawn.map((d) => d.did) })
      return
    }
    init.counters.drawn++
    const at = new Date(clock()).toISOString()
    for (const { did, scope } of drawn) init.inbox.add(memory, author, did, scope, at)
    const agents = await init.hostedAgents()
    const item = await init.inbox.entry(memory, init.node.store, agents)
    if (item !== null) await announceItem(init, item, agents)
  }

  const unsubscribe = init.node.pipeline.onStored((records, source) => {
    if (source === 'local') {
      // What this node's agents signed: the network's cost per memory is summed from these.
      for (const { signed: { record } } of records) {
        if (record.kind === 'witness_request') init.counters.requests++
        else if (record.kind === 'attestation') {
          init.counters.attestations++
          if (record.draw !== undefined) init.counters.drawn_attestations++
        }
      }
      return
    }
    // Only what arrives from the network: imports and replays were drawn for (or not) when they first arrived.
    if (source === 'import' || source === 'replay') return
    for (const { id, signed: { record } } of records) {
      if (record.kind === 'memory') enqueue(async () => { await draw(id, record.author.agent_id) })
    }
  })

  const admitRequest = async (requestId: string, item: InboxEntry): Promise<boolean> => {
    const agents = await init.hostedAgents()
    if (agents.includes(item.requester)) return true // the node's own agents' requests are not a stranger's
    // Known: a trust path reaches it.
    if (await init.node.trust.reputationOf(item.requester) > 0) return true
    const memory = await init.node.store.getMemory(item.memory)
    const author = memory?.signed.record.author.agent_id ?? item.requester
    const refused = init.budget.take(item.memory, author, clock())
    if (refused === undefined) return true
    init.counters.skipped[refused]++
    init.inbox.skip(requestId)
    init.logger.info('witness request skipped: over the witness budget', { request: requestId, memory: item.memory, requester: item.requester, limit: refused })
    return false
  }

  return {
    admitRequest,
    stop: () => { stopped = true; unsubscribe() }
  }
}
