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
   * c × agentsPerShard ≤ N̂, so a shard holds between agentsPerShard and twice as many agents, and
   * what one node receives stays within 2× whatever the network's size.
   * @default 128
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
  agentsPerShard: 128,
  maxCount: 4096,
  countSlack: 2
})
