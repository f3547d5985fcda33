import { sha256 } from '@noble/hashes/sha2.js'
import { IsnadError } from '../errors/index.js'
import { SHARD_TAG, SHARDS } from './constants.js'

/*
 * Which shard an agent's records travel on, and how many shards a network of a given size has
 * (protocols/gossip-v1.md, "Shards"). Pure: no clock, no randomness, no I/O.
 *
 * The count is always a power of two and an agent's shard is its hash modulo the count, so the shard
 * under 2c refines the shard under c (shardOf(did, 2c) mod c = shardOf(did, c)): when a network
 * doubles its count, each shard splits in two and no agent moves to an unrelated shard.
 */

const TAG_BYTES = new TextEncoder().encode(SHARD_TAG)
const encoder = new TextEncoder()

/** Whether `count` is a shard count: a power of two from 1 to SHARDS.maxCount. */
export function isShardCount (count: number): boolean {
  return Number.isSafeInteger(count) && count >= 1 && count <= SHARDS.maxCount && (count & (count - 1)) === 0
}

/**
 * The shard (0 ≤ shard < count) of an agent: the first 4 bytes of SHA-256(`isnad/shard/v1\0` ‖ did as
 * UTF-8), big-endian, modulo `count`. Throws USAGE for a count that is not a shard count.
 */
export function shardOf (did: string, count: number): number {
  if (!isShardCount(count)) throw new IsnadError('USAGE', `a shard count is a power of two from 1 to ${SHARDS.maxCount}, got ${String(count)}`)
  const input = new Uint8Array(TAG_BYTES.length + encoder.encode(did).length)
  input.set(TAG_BYTES, 0)
  input.set(encoder.encode(did), TAG_BYTES.length)
  const digest = sha256(input)
  const word = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0
  return word % count
}

/**
 * The shard count for a network of `population` agents (a node's N̂): the largest power of two c with
 * c × agentsPerShard ≤ population, at least 1 and at most maxCount. A population that is not a finite
 * number gives 1.
 */
export function shardCountFor (population: number, agentsPerShard: number = SHARDS.agentsPerShard): number {
  if (!Number.isSafeInteger(agentsPerShard) || agentsPerShard < 1) throw new IsnadError('USAGE', `agents per shard is an integer of at least 1, got ${String(agentsPerShard)}`)
  if (!Number.isFinite(population)) return 1
  let count = 1
  while (count * 2 <= SHARDS.maxCount && count * 2 * agentsPerShard <= population) count *= 2
  return count
}

/**
 * Whether a node whose own count is `own` accepts a count a peer's record states: a shard count within
 * a factor `slack` of its own, either way.
 */
export function acceptsShardCount (stated: number, own: number, slack: number = SHARDS.countSlack): boolean {
  if (!isShardCount(stated) || !isShardCount(own)) return false
  return stated * slack >= own && stated <= own * slack
}

/**
 * The shard counts a node whose own count is `own` listens on: every count it accepts (acceptsShardCount),
 * ascending. A record published under any of them reaches it.
 */
export function shardCountsAccepted (own: number, slack: number = SHARDS.countSlack): number[] {
  if (!isShardCount(own)) throw new IsnadError('USAGE', `a shard count is a power of two from 1 to ${SHARDS.maxCount}, got ${String(own)}`)
  const counts: number[] = []
  for (let count = 1; count <= SHARDS.maxCount; count *= 2) if (acceptsShardCount(count, own, slack)) counts.push(count)
  return counts
}

/**
 * The shard counts a node whose estimate is `estimate` (its N̂) listens on: the counts of every estimate
 * within a factor `slack` of its own (shardCountFor(N̂ / slack) … shardCountFor(N̂ × slack)). Under a
 * count c ≥ 2 these are shardCountsAccepted(c), {c/2, c, 2c}; under count 1 they are {1, 2} only once
 * N̂ × slack reaches the count-2 threshold (2 × agentsPerShard): no peer whose estimate is within the
 * slack of a smaller N̂ publishes under count 2, so its topics would be joined for nothing (gossip-v1
 * §11.4). A peer whose estimate is further off is missed either way until the estimates meet (§11.6).
 */
export function shardCountsHeard (estimate: number, slack: number = SHARDS.countSlack): number[] {
  const own = shardCountFor(estimate)
  const lowest = shardCountFor(estimate / slack)
  const highest = shardCountFor(estimate * slack)
  return shardCountsAccepted(own, slack).filter((count) => count >= lowest && count <= highest)
}
