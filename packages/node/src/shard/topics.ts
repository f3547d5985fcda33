import { IsnadError } from '../errors/index.js'
import { SHARDS } from './constants.js'
import { isShardCount, shardCountsAccepted, shardOf } from './shard.js'

/*
 * The gossip topics of shards (protocols/gossip-v1.md, "Shards"). Under count 1 a shard's topics are
 * the network-wide topics of gossip-v1 §2 (`isnad/v1/memories` …), so a network too small to split
 * is exactly the network of nodes that know nothing of shards. Under a count c > 1, shard s of kind k
 * is `isnad/v1/shards/<c>/<s>/<k>`. Pure: no clock, no randomness, no I/O.
 */

/** The kinds of payload that travel on a shard's topics (gossip-v1 §2's names). */
export const SHARD_TOPIC_KINDS = ['memories', 'witness-requests', 'attestations', 'anchors', 'checkpoints'] as const
export type ShardTopicKind = (typeof SHARD_TOPIC_KINDS)[number]

/** One shard's topic, parsed. */
export interface ShardTopic {
  count: number
  shard: number
  kind: ShardTopicKind
}

const NETWORK_PREFIX = 'isnad/v1/'
const SHARD_PREFIX = 'isnad/v1/shards/'
const KINDS = new Set<string>(SHARD_TOPIC_KINDS)
const DECIMAL = /^(0|[1-9][0-9]{0,5})$/

/** The topic of `kind` for shard `shard` under `count`. Throws USAGE for a count or shard out of range. */
export function shardTopic (count: number, shard: number, kind: ShardTopicKind): string {
  if (!isShardCount(count)) throw new IsnadError('USAGE', `a shard count is a power of two from 1 to ${SHARDS.maxCount}, got ${String(count)}`)
  if (!Number.isSafeInteger(shard) || shard < 0 || shard >= count) throw new IsnadError('USAGE', `shard ${String(shard)} is not one of the ${count} shards`)
  return count === 1 ? `${NETWORK_PREFIX}${kind}` : `${SHARD_PREFIX}${count}/${shard}/${kind}`
}

/**
 * The shard a topic names, or undefined for a topic that is not a shard's (the key logs' topic, a
 * topic of another version, a malformed name). A network-wide topic of a shard kind is shard 0 of
 * count 1; a shard topic must be written as shardTopic writes it (no leading zeros, `/<c>/` for a
 * count above 1 only), so one shard has one name.
 */
export function parseShardTopic (topic: string): ShardTopic | undefined {
  if (!topic.startsWith(SHARD_PREFIX)) {
    if (!topic.startsWith(NETWORK_PREFIX)) return undefined
    const kind = topic.slice(NETWORK_PREFIX.length)
    return KINDS.has(kind) ? { count: 1, shard: 0, kind: kind as ShardTopicKind } : undefined
  }
  const parts = topic.slice(SHARD_PREFIX.length).split('/')
  if (parts.length !== 3) return undefined
  const [countText, shardText, kind] = parts as [string, string, string]
  if (!DECIMAL.test(countText) || !DECIMAL.test(shardText) || !KINDS.has(kind)) return undefined
  const count = Number(countText)
  const shard = Number(shardText)
  if (count === 1 || !isShardCount(count) || shard >= count) return undefined
  return { count, shard, kind: kind as ShardTopicKind }
}

/** A node's shards: whose records it subscribes to, as HomeShards computes them. */
export interface HomeShards {
  /** The node's own count. */
  count: number
  /** Its shards under its own count, ascending: at most maxShards of them. */
  shards: number[]
  /** The dids whose shard is among `shards` (the ones the bound kept), in the order given. */
  kept: string[]
  /** The dids whose shard the bound left out (served by sync, not gossip). */
  left: string[]
  /** Every count it listens on (among shardCountsAccepted, its own included) with its shards under that count, ascending. */
  byCount: Array<{ count: number, shards: number[] }>
}

/**
 * A node's home shards (gossip-v1 "Shards"): the shards of `dids` (its own agents first, then the
 * authors it follows) under its count, the first `maxShards` distinct ones in that order; under each
 * other count it listens on (`listened`: by default every count it accepts, shardCountsAccepted;
 * from an estimate, shardCountsHeard), the shards of the dids those kept. A node with no did to place
 * (no agent, no follow) holds the shard of `fallback` (its peer id): every node carries some shard's
 * traffic.
 */
export function homeShards (
  dids: readonly string[], count: number, maxShards: number, fallback: string, listened: readonly number[] = shardCountsAccepted(count)
): HomeShards {
  if (!Number.isSafeInteger(maxShards) || maxShards < 1) throw new IsnadError('USAGE', `max-shards is an integer of at least 1, got ${String(maxShards)}`)
  if (!listened.includes(count) || !listened.every((c) => shardCountsAccepted(count).includes(c))) {
    throw new IsnadError('USAGE', `a node listens on its own count ${count} and on counts it accepts, got ${listened.join(', ')}`)
  }
  const given = dids.length === 0 ? [fallback] : [...new Set(dids)]
  const shards = new Set<number>()
  const kept: string[] = []
  const left: string[] = []
  for (const did of given) {
    const shard = shardOf(did, count)
    if (shards.has(shard) || shards.size < maxShards) {
      shards.add(shard)
      kept.push(did)
    } else {
      left.push(did)
    }
  }
  const byCount = [...listened].sort((a, b) => a - b).map((c) => ({
    count: c,
    shards: c === count ? [...shards].sort((a, b) => a - b) : sortedUnique(kept.map((did) => shardOf(did, c)))
  }))
  return { count, shards: [...shards].sort((a, b) => a - b), kept: dids.length === 0 ? [] : kept, left, byCount }
}

/** Every shard topic a node with these home shards subscribes to, of every kind. */
export function shardTopicsOf (home: HomeShards): string[] {
  const topics: string[] = []
  for (const { count, shards } of home.byCount) {
    for (const shard of shards) for (const kind of SHARD_TOPIC_KINDS) topics.push(shardTopic(count, shard, kind))
  }
  return topics
}

function sortedUnique (values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b)
}
