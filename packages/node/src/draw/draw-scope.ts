import { IsnadError } from '../errors/index.js'
import { acceptsShardCount, isShardCount, SHARDS, shardCountFor, shardOf } from '../shard/index.js'

/*
 * The draw within a shard (protocols/witness-draw-v1.md W12): once a network has shards, a memory
 * travels on its author's shard only, so its witnesses are drawn from the agents of that shard. A
 * witness states the count it drew within (`draw.shards`, absent: 1) and its estimate of that
 * shard's agents (`draw.population`). Pure: no clock, no randomness, no I/O.
 */

/** How a witness draws for a memory: within `shards` shards, at `population` (its estimate of the shard's agents). */
export interface DrawScope {
  shards: number
  population: number
}

/**
 * The scope a witness whose network estimate is `estimate` draws in for a memory of `author`: its
 * count c = shardCountFor(estimate) (or the count its node was set to, `shards`) and population
 * max(1, ⌊estimate / c⌋); undefined when the witness is not in the author's shard under c (it is
 * never drawn for that memory, and receives it by gossip only when its node follows the author).
 */
export function drawScopeOf (estimate: number, witness: string, author: string, shards = shardCountFor(estimate)): DrawScope | undefined {
  if (shards > 1 && shardOf(witness, shards) !== shardOf(author, shards)) return undefined
  return { shards, population: Math.max(1, Math.floor(estimate / shards)) }
}

/**
 * W12: why a node whose network estimate is `estimate` does not count a draw stated within `shards`
 * (absent: 1) by `witness` for a memory of `author`, or undefined when the shards are acceptable: a
 * count within a factor 2 of the node's own `own` — the count its node was set to (the
 * `shard-count` setting), else shardCountFor(estimate), the count its own draw uses — and the
 * witness in the author's shard under it. The population is judged separately, against
 * estimate / shards (shardEstimate).
 */
export function drawShardRefusal (
  estimate: number, shards: number | undefined, witness: string, author: string, own = shardCountFor(estimate)
): string | undefined {
  const stated = shards ?? 1
  if (!acceptsShardCount(stated, own)) return `its draw is within ${stated} shard(s), and this node's count is ${own} (accepted: ${Math.max(1, own / 2)} to ${own * 2})`
  if (stated > 1 && shardOf(witness, stated) !== shardOf(author, stated)) return `its witness is not in the author's shard under ${stated} shards`
  return undefined
}

/** A node's estimate of the agents of one shard of `shards`: its network estimate over the count. */
export function shardEstimate (estimate: number, shards: number | undefined): number {
  return estimate / (shards ?? 1)
}

/**
 * W8: the agents a node expects to hold a memory, of which about privateChecks should check it
 * privately: its network estimate over its shard count `own` (a memory travels on its author's
 * shard only; the count its node was set to, else shardCountFor(estimate)), so the network as a
 * whole checks a memory about privateChecks times whatever its size.
 */
export function holdersEstimate (estimate: number, own = shardCountFor(estimate)): number {
  return estimate / own
}

/** A node's set shard count, as the trust core receives it: a power of two the shards allow; anything else is the caller's bug (USAGE). */
export function checkedShardCount (count: number): number {
  if (!isShardCount(count)) throw new IsnadError('USAGE', `shardCount must be a power of two from 1 to ${SHARDS.maxCount}, got ${count}`)
  return count
}
