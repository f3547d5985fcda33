/*
 * The shards' constants (protocols/gossip-v1.md, "Shards"). Which shard an agent's records travel on
 * is the same at every node, so the tag and the shard count's rule are protocol values: a node that
 * changed them would publish where its peers do not listen.
 */

/** The UTF-8 tag hashed before an agent's did to place it in a shard: `isnad/shard/v1\0`. */
export const SHARD_TAG = 'isnad/shard/v1\0'

export interface ShardConstants {
  /**
   * Agents a shard holds at least, on average: the shard count is the largest power of two c with
   * c × agentsPerShard ≤ N̂, so a shard holds between agentsPerShard and twice as many agents. What a
   * node receives is its shards' traffic, (N̂ / c) × the shards it holds, and the shards it holds grow
   * with c (about 1.5 of 2, 2.2 of 8, 2.4 from 32 on, at 3 follows): at 128 a 1,000-agent network's
   * node (4 shards of 250, 1.95 held) got 2.1× what a 300-agent one's does (2 of 150, 1.52 held).
   * At 80 a shard holds 80–160 agents and a node's traffic stays within 2× of a 300-agent network's
   * up to 10,000 (protocols/gossip-v1.md §11.1, BENCHMARKS.md).
   * @default 80
   */
  readonly agentsPerShard: number
  /** The largest shard count (2^12): a network of ~500,000 agents. @default 4096 */
  readonly maxCount: number
  /**
   * A node accepts a shard count a peer's record states iff it is within this factor of its own
   * (either way): nodes whose estimates of the network differ still share topics, and a witness
   * cannot pick a finer count to shrink its shard's population by more than this factor.
   * @default 2
   */
  readonly countSlack: number
}

/** The shards' defaults (protocols/gossip-v1.md, "Shards"). */
export const SHARDS: ShardConstants = Object.freeze({
  agentsPerShard: 80,
  maxCount: 4096,
  countSlack: 2
})
