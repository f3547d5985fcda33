import { z } from 'zod'

/*
 * A scenario's `sharding` section (docs/simulation.md, "Scale: shards and interests"): what the model
 * engine's nodes follow and how many shards each subscribes to. The shard count itself is not a
 * setting: every node computes it from the network's size (src/shard shardCountFor), as a daemon does.
 * On real nodes the daemons run their own defaults.
 */

/** A daemon's default `max-shards` (protocols/gossip-v1.md, "Shards"). */
export const DEFAULT_MAX_SHARDS = 8

/** Authors each agent follows by default: the ones that asked it to witness most often. */
export const DEFAULT_FOLLOWS_PER_AGENT = 3

export const ShardingSchema = z.strictObject({
  /**
   * Authors each agent follows: those whose memories it was asked to witness, most asked first (an
   * agent nobody asks follows nobody). Each followed author's shard is one of the node's home shards.
   */
  followsPerAgent: z.number().int().min(0).max(64).default(DEFAULT_FOLLOWS_PER_AGENT),
  /** Shards a node subscribes to at most (its own agent's first, then its follows'); follows beyond are not subscribed. */
  maxShards: z.number().int().min(1).max(64).default(DEFAULT_MAX_SHARDS),
  /**
   * Observers also follow their trust roots (their shards become home shards), so the roots' drawn
   * attestations are among what an observer holds. Not a daemon default: a research option.
   */
  observersFollowRoots: z.boolean().default(false),
  /**
   * What makes a node fetch the evidence of agents outside its shards (docs/trust.md §3a): `off`, a
   * daemon's default as the observers use it (they read their scores by query and export, which
   * ask for nothing); `explained`, each observer explains every memory it is judged on, so its
   * daemon fetches the evidence of their witnesses whose shard it does not hold.
   */
  evidenceFetch: z.enum(['off', 'explained']).default('off')
})

export type ShardingSettings = z.infer<typeof ShardingSchema>
