import type { Logger } from '../log/index.js'
import type { Network } from '../net/index.js'
import type { LocalNode } from '../node/index.js'
import { EVIDENCE_FETCH } from '../node/index.js'
import { shardOf } from '../shard/index.js'
import { startPeriodic } from './periodic.js'

/*
 * Trust on partial knowledge, the daemon's side (docs/trust.md §3a): a sharded node holds its home
 * shards' records, so it fetches the evidence its reputation needs about agents outside them — those
 * a score read (a memory's author and witnesses), its roots and the agents near them — by sync by
 * interest with author interests (protocols/sync-v1.md §9): each such agent is an author interest
 * of the node's next sync runs for EVIDENCE_FETCH.refreshMs, its cursor per peer kept like a follow's.
 * Under one shard (a network below 256 agents) the node holds everything and fetches nothing.
 */

export interface EvidenceFetchInit {
  network: Network
  logger: Logger
  /** @default EVIDENCE_FETCH.intervalMs */
  intervalMs?: number
}

export interface EvidenceFetcher {
  /** Lets `node` score with what it lacks said and fetch it (each opened node: a reindex reopens it). */
  attach: (node: LocalNode) => void
  stop: () => void
}

/** Whether the node holds `did`'s records: one shard, a home shard, or a follow its sync runs carry. */
export function holdsAgent (home: Network['home'], did: string): boolean {
  return home.count <= 1 || home.shards.includes(shardOf(did, home.count)) || home.left.includes(did)
}

export function startEvidenceFetching (init: EvidenceFetchInit): EvidenceFetcher {
  let node: LocalNode | undefined
  let running: Promise<void> = Promise.resolve()
  // One sync round at a time: the agents asked meanwhile ride on the next (their state says fetching).
  const fetch = async (dids: readonly string[]): Promise<void> => {
    running = running.then(async () => {
      const results = await init.network.syncAll()
      const failed = results.filter((r) => r.error !== undefined).length
      init.logger.debug('evidence fetched', { agents: dids.length, peers: results.length, failed })
    }).catch((err: unknown) => { init.logger.warn('evidence fetch failed', { error: err }) })
    await running
  }
  const stopRounds = startPeriodic(() => {
    if (node === undefined || init.network.home.count <= 1) return
    void node.trust.fetchEvidenceRound().catch((err: unknown) => { init.logger.warn('evidence round failed', { error: err }) })
  }, init.intervalMs ?? EVIDENCE_FETCH.intervalMs)
  return {
    attach: (opened) => {
      node = opened
      opened.trust.useEvidenceFetching({ held: (did) => holdsAgent(init.network.home, did), fetch })
    },
    stop: stopRounds
  }
}
