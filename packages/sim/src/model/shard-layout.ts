import { shardCountFor, shardCountsAccepted, shardOf } from 'isnad/engine'
import type { Plan, ShardingSettings } from '../scenario/index.js'

/*
 * Shards and interests as the model engine plays them (docs/simulation.md, "Scale: shards and
 * interests"), with a daemon's defaults: the shard count from the network's size (src/shard
 * shardCountFor, every node's estimate taken as the exact size), each agent in shardOf(its did), and
 * each node subscribed to its home shards — its agent's, then its followed authors', at most
 * `maxShards`. A record travels on its author's shard and reaches that shard's subscribers only; a
 * witness request also on the home shard of each witness it addresses. Pure: the same plan and dids
 * give the same layout.
 */

export class ShardLayout {
  /** The shard count c every node computes from the network's size. */
  readonly count: number
  /** The counts a node listens on (c/2, c, 2c): with every node's count c, only c's topics carry traffic. */
  readonly acceptedCounts: readonly number[]
  /** Each agent's shard under `count`. */
  readonly shardOfAgent: Int32Array
  /** The agents of each shard, ascending. */
  readonly members: number[][]
  /** The authors each agent follows, in the order chosen. */
  readonly follows: number[][]
  /** Each node's home shards, its own agent's first; at most maxShards. */
  readonly homeShards: number[][]
  /** Follows whose shard did not fit under maxShards (served by sync by interest on a daemon, not played here). */
  readonly unsubscribedFollows: number
  private readonly subscribed: Uint8Array

  constructor (plan: Plan, dids: readonly string[], settings: ShardingSettings) {
    const size = dids.length
    this.count = shardCountFor(size)
    this.acceptedCounts = shardCountsAccepted(this.count)
    this.shardOfAgent = Int32Array.from(dids, (did) => shardOf(did, this.count))
    this.members = Array.from({ length: this.count }, () => [])
    this.shardOfAgent.forEach((shard, agent) => { this.members[shard]?.push(agent) })
    this.follows = followsOf(plan, size, settings)
    this.subscribed = new Uint8Array(size * this.count)
    let unsubscribed = 0
    this.homeShards = this.follows.map((followed, node) => {
      const home = [this.shardOfAgent[node] as number]
      for (const author of followed) {
        const shard = this.shardOfAgent[author] as number
        if (home.includes(shard)) continue
        if (home.length >= settings.maxShards) { unsubscribed++; continue }
        home.push(shard)
      }
      for (const shard of home) this.subscribed[node * this.count + shard] = 1
      return home
    })
    this.unsubscribedFollows = unsubscribed
  }

  /** Whether `node` subscribes to `shard`'s topics. */
  subscribes (node: number, shard: number): boolean {
    return this.subscribed[node * this.count + shard] === 1
  }

  /** The shard a memory of `author` (and its attestations and anchors) travels on. */
  shardOfAuthor (author: number): number {
    return this.shardOfAgent[author] as number
  }

  /** The shards a witness request travels on: its author's, and each addressed witness's home shard (gossip-v1). */
  requestShards (author: number, witnesses: readonly number[]): number[] {
    const shards = new Set([this.shardOfAuthor(author)])
    for (const w of witnesses) shards.add(this.shardOfAgent[w] as number)
    return [...shards]
  }

  /** Whether `node` receives a witness request travelling on `shards` (once, whatever number of its topics carry it). */
  receivesAny (node: number, shards: readonly number[]): boolean {
    return shards.some((shard) => this.subscribes(node, shard))
  }
}

/**
 * The authors each agent follows (the scenario's `sharding.followsPerAgent`): the authors whose
 * memories the plan asks it to witness, most often asked first, ties to the lower index; an agent
 * nobody asks follows nobody. With `observersFollowRoots`, an observer follows its trust roots first.
 */
export function followsOf (plan: Plan, size: number, settings: Pick<ShardingSettings, 'followsPerAgent' | 'observersFollowRoots'>): number[][] {
  const asked: Array<Map<number, number>> = Array.from({ length: size }, () => new Map())
  for (const memory of plan.memories) {
    for (const { witness } of memory.answers) {
      const counts = asked[witness] as Map<number, number>
      counts.set(memory.author, (counts.get(memory.author) ?? 0) + 1)
    }
  }
  const follows = asked.map((counts, agent) => [...counts]
    .filter(([author]) => author !== agent)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, settings.followsPerAgent)
    .map(([author]) => author))
  if (settings.observersFollowRoots) {
    for (const observer of plan.observers) {
      const roots = plan.trustRoots.filter((r) => r !== observer)
      follows[observer] = [...roots, ...(follows[observer] ?? []).filter((a) => !roots.includes(a))]
    }
  }
  return follows
}
