/*
 * What a run's shards were and what they cost each node (docs/simulation.md, "Scale: shards and
 * interests"): written by the model engine, which plays sharding; absent from real-node runs and
 * from results written before it.
 */

/** A per-node figure over the nodes measured: mean, lowest and highest. */
export interface NodeSpread {
  mean: number
  min: number
  max: number
}

export interface ShardingSummary {
  /** The shard count c every node computed from the network's size (src/shard shardCountFor). */
  count: number
  /** The counts each node listens on (c/2, c, 2c; only c's topics carry traffic when every node's count is c). */
  acceptedCounts: number[]
  /** The `sharding` settings played: follows per agent, max shards per node, observers following their roots. */
  followsPerAgent: number
  maxShards: number
  observersFollowRoots: boolean
  /** What made a node fetch the evidence of agents outside its shards (docs/trust.md §3a): `off` or `explained`. */
  evidenceFetch: 'off' | 'explained'
  /** Of messagesPerMinute, those of evidence fetching (records brought, sync requests), per measured node. */
  evidenceMessagesPerMinute: NodeSpread
  /** Agents per shard. */
  agentsPerShard: NodeSpread
  /** Home shards per node (its agent's and its follows'), over every node. */
  shardsPerNode: NodeSpread
  /** Follows whose shard did not fit under maxShards, over every node. */
  unsubscribedFollows: number
  /** Nodes measured (the tracked nodes online at the end). */
  measuredNodes: number
  /** Messages each measured node received per simulated minute of the scenario: gossip (each record once, as a node counts it) and evidence fetching. */
  messagesPerMinute: NodeSpread
  /** Records each measured node stores at the end: memories, attestations and witness requests of its shards. */
  storedRecords: NodeSpread
  /** Memories each observer's trust was judged on: those of its home shards (a sharded node holds no other). */
  judgedMemoriesPerObserver: NodeSpread
}
