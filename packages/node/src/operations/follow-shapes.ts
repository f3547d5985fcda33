import { z } from 'zod'
import { FollowSchema } from '../schema/index.js'
import { didKey } from '../schema/index.js'

/* What `follow` takes and returns on every surface (src/operations/table/follow-ops.ts; protocols/gossip-v1.md "Shards"). */

export const FOLLOW_ACTIONS = ['add', 'remove', 'list'] as const
export type FollowAction = (typeof FOLLOW_ACTIONS)[number]

/** The node's shards as its running daemon subscribes to them now. */
export const FollowGossipSchema = z.strictObject({
  /** The shard count the node publishes under (its own, or the `shard-count` setting). */
  count: z.number().int().min(1),
  /** Its home shards under that count: its agents' and the followed authors' (at most `max-shards`). */
  shards: z.array(z.number().int().min(0)),
  /** Followed authors whose shard did not fit within `max-shards`: not gossiped to this node; only sync by interest brings them. */
  by_sync: z.array(didKey)
}).meta({ id: 'FollowGossip' })

export const FollowsSchema = z.strictObject({
  /** What the node follows besides its own agents, authors first. */
  follows: z.array(FollowSchema),
  /** Present when a daemon runs: how its gossip subscriptions serve the follows. */
  gossip: FollowGossipSchema.optional()
}).meta({ id: 'Follows' })
export type Follows = z.infer<typeof FollowsSchema>

export type FollowInput = { action: 'list' } | { action: 'add' | 'remove', did: string } | { action: 'add' | 'remove', tag: string }
export type FollowGossip = z.infer<typeof FollowGossipSchema>
