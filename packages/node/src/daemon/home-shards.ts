import type { FollowGossip } from '../operations/index.js'
import type { Logger } from '../log/index.js'
import type { Network } from '../net/index.js'
import { followedAuthors, followedTags, type LocalNode } from '../node/index.js'
import { homeShards, shardCountFor, shardCountsAccepted, shardCountsHeard, type HomeShards } from '../shard/index.js'

/*
 * The node's home shards on a running daemon (protocols/gossip-v1.md "Shards"): its own agents'
 * shards and its followed authors', at most `maxShards`, under its count — shardCountFor(N̂), or the
 * `shard-count` setting. Recomputed when follows or keys change and at every heartbeat (N̂ grows
 * with what the node learns); gossip moves its subscriptions only when the shards changed. The
 * followed tags' topics are subscribed to beside them (gossip-v1 §11.9).
 */

export interface ShardServiceInit {
  network: Network
  /** The node now (a reindex reopens it). */
  node: () => LocalNode
  hostedAgents: () => Promise<string[]>
  /** A fixed count (the `shard-count` setting); absent: from the node's population estimate. */
  shardCount?: number
  maxShards: number
  logger: Logger
}

export interface ShardService {
  /** Recomputes the home shards and moves the subscriptions if they changed; one run at a time. */
  refresh: () => Promise<HomeShards>
  /** How gossip serves the follows now (the `follow` operation's `gossip`). */
  gossip: () => FollowGossip
}

export function startShardService (init: ShardServiceInit): ShardService {
  let running: Promise<HomeShards> = Promise.resolve(init.network.home)
  let first = true
  const compute = async (): Promise<HomeShards> => {
    const node = init.node()
    // A set count listens on every count it accepts; an estimate on the counts of estimates near it.
    const estimate = init.shardCount === undefined ? await node.populationEstimate() : undefined
    const count = init.shardCount ?? shardCountFor(estimate ?? 1)
    const listened = estimate === undefined ? shardCountsAccepted(count) : shardCountsHeard(estimate)
    const follows = await (await node.follows()).list()
    const dids = [...await init.hostedAgents(), ...followedAuthors(follows)]
    const home = homeShards(dids, count, init.maxShards, init.network.peerId.toString(), listened)
    init.network.setFollowedTags(followedTags(follows))
    const before = init.network.home
    const changed = !sameHome(before, home)
    // The first one is set even when unchanged: the network's syncs wait for it (sync-v1 §9).
    if (changed || first) init.network.setHome(home)
    first = false
    if (changed) {
      init.logger.info('gossip shards changed', { count: home.count, shards: home.shards, by_sync: home.left, was: { count: before.count, shards: before.shards } })
    }
    return home
  }
  return {
    refresh: async () => {
      running = running.catch(() => init.network.home).then(compute)
      return await running
    },
    gossip: () => {
      const { count, shards, left } = init.network.home
      return { count, shards, by_sync: left }
    }
  }
}

function sameHome (a: HomeShards, b: HomeShards): boolean {
  return JSON.stringify(a.byCount) === JSON.stringify(b.byCount) && a.count === b.count && a.left.join() === b.left.join()
}
