import { randomInt } from 'node:crypto'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import { SPOT_CHECK_DRAW } from '../trust/index.js'
import type { LocalNode } from '../node/index.js'

/*
 * Spot checks (issue 18, docs/trust.md §5a): when a memory arrives from the network, the node's own
 * agent asks witnesses the node draws itself — at random among the agents it finds reputable, never
 * the author, a witness the author asked, or one of its own agents — with a signed witness request,
 * stored and gossiped like any other (the publisher sends what is stored locally). When a drawn
 * witness disputes, it asks a few more, once. On by default; off with `spotChecks: false`
 * (`isnad start --no-spot-checks`, or ISNAD_SPOT_CHECKS=off).
 * What the requests are for: a confirm by a witness the author did not choose is independent
 * evidence (src/trust independent-witnesses.ts), and a circle of accomplices the author recruits
 * meets the node's draw only by chance.
 */

export interface SpotCheckOptions {
  /** Witnesses drawn per memory received. @default SPOT_CHECK_DEFAULTS.perMemory (3) */
  perMemory?: number
  /** Witnesses drawn more, once per memory, when a drawn witness disputes. @default 2 */
  escalation?: number
  /** Reputation a witness needs to be drawn (a confirm below it could not make Attested alone). @default 0.5 */
  minReputation?: number
  /** Spot-check requests per minute at most; memories beyond are not checked. @default 30 */
  maxPerMinute?: number
  /**
   * How long after a memory arrives the node draws (ms): the author's own request usually follows its
   * memory within a moment, and a witness it asked must not be drawn. @default 2000
   */
  delayMs?: number
}

/** The draw is src/trust's (the simulator models the same one); the pace is the daemon's. */
export const SPOT_CHECK_DEFAULTS: Readonly<Required<SpotCheckOptions>> = Object.freeze({
  ...SPOT_CHECK_DRAW, maxPerMinute: 30, delayMs: 2000
})

/** Memories whose draw the service remembers (to escalate on a dispute); the oldest are forgotten. @default 4096 */
const REMEMBERED_MEMORIES = 4096

export interface SpotCheckInit {
  node: LocalNode
  keystore: Keystore
  /** The node's own agents (the daemon's cached keystore listing); the first one signs the requests. */
  hostedAgents: () => Promise<string[]>
  logger: Logger
  options?: SpotCheckOptions
  /** A uniform integer in [0, n): the node's own randomness, which an author cannot predict. @default crypto.randomInt */
  randomIndex?: (n: number) => number
}

interface Drawn {
  author: string
  witnesses: Set<string>
  escalated: boolean
}

/** Starts the service; returns the function that stops it. */
export function startSpotChecks (init: SpotCheckInit): () => void {
  const options = { ...SPOT_CHECK_DEFAULTS, ...init.options }
  const randomIndex = init.randomIndex ?? ((n: number) => randomInt(n))
  const drawn = new Map<string, Drawn>()
  const timers = new Set<NodeJS.Timeout>()
  const bucket = { tokens: options.maxPerMinute, at: Date.now() }
  let stopped = false
  let queue = Promise.resolve()

  const enqueue = (task: () => Promise<void>): void => {
    queue = queue.then(async () => { if (!stopped) await task() }).catch((err: unknown) => {
      init.logger.warn('spot check failed', { error: err })
    })
  }

  /** A token of the per-minute budget, refilled continuously. */
  const take = (): boolean => {
    const now = Date.now()
    bucket.tokens = Math.min(options.maxPerMinute, bucket.tokens + (now - bucket.at) * options.maxPerMinute / 60_000)
    bucket.at = now
    if (bucket.tokens < 1) return false
    bucket.tokens -= 1
    return true
  }

  const check = async (memory: string, author: string, count: number): Promise<void> => {
    const own = await init.hostedAgents()
    const requester = own[0]
    if (requester === undefined || own.includes(author)) return
    if (!take()) { init.logger.info('spot check skipped: rate limit', { memory }); return }
    const entry = drawn.get(memory) ?? { author, witnesses: new Set<string>(), escalated: false }
    const asked = (await init.node.store.witnessRequestsFor(memory))
      .filter((r) => r.signed.record.requester === author)
      .flatMap((r) => r.signed.record.witnesses ?? [])
    // A witness that has already answered (another node's spot check, or unasked) is no draw: its
    // verdict predates this node's request, so it is not independent evidence here, and its inbox
    // drops a request for a memory it answered (src/node inbox.ts).
    const answered = (await init.node.store.attestationsFor(memory)).map((a) => a.signed.record.witness)
    const excluded = new Set([author, ...own, ...asked, ...answered, ...entry.witnesses])
    const eligible = (await init.node.trust.reputableAgents(options.minReputation)).filter((did) => !excluded.has(did))
    const picked: string[] = []
    for (let k = 0; k < count && eligible.length > 0; k++) {
      picked.push(eligible.splice(randomIndex(eligible.length), 1)[0] as string)
    }
    if (picked.length === 0) { init.logger.debug('spot check: no reputable witness to draw', { memory }); return }
    const key = await init.keystore.load(requester)
    await init.node.requestWitnesses({ memory, to: picked }, { did: key.did, secretKey: key.secretKey })
    for (const w of picked) entry.witnesses.add(w)
    drawn.delete(memory)
    drawn.set(memory, entry)
    while (drawn.size > REMEMBERED_MEMORIES) drawn.delete(drawn.keys().next().value as string)
    init.logger.debug('spot check asked', { memory, witnesses: picked })
  }

  const unsubscribe = init.node.pipeline.onStored((records, source) => {
    // Only what arrives from the network: the node's own memories and imports are not spot-checked.
    if (source === 'local' || source === 'import' || source === 'replay') return
    for (const { id, signed: { record } } of records) {
      if (record.kind === 'memory') {
        const timer = setTimeout(() => {
          timers.delete(timer)
          enqueue(async () => { await check(id, record.author.agent_id, options.perMemory) })
        }, options.delayMs)
        timers.add(timer)
      } else if (record.kind === 'attestation' && record.attestation === 'dispute') {
        const entry = drawn.get(record.memory)
        if (entry === undefined || entry.escalated || !entry.witnesses.has(record.witness) || options.escalation === 0) continue
        entry.escalated = true
        enqueue(async () => { await check(record.memory, entry.author, options.escalation) })
      }
    }
  })

  return () => {
    stopped = true
    unsubscribe()
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
  }
}
