/*
 * Shards (protocols/gossip-v1.md, "Shards"): a network's records travel on a bounded set of shards,
 * each agent's in the shard its did hashes to, so a node receives its shards' traffic, not the whole
 * network's. Pure: no clock, no randomness, no I/O.
 */
export { SHARD_TAG, SHARDS, type ShardConstants } from './constants.js'
export { acceptsShardCount, isShardCount, shardCountFor, shardCountsAccepted, shardCountsHeard, shardOf } from './shard.js'
export {
  SHARD_TOPIC_KINDS, homeShards, parseShardTopic, shardTopic, shardTopicsOf, type HomeShards, type ShardTopic, type ShardTopicKind
} from './topics.js'
