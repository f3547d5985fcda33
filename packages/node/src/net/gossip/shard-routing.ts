import { decodeSignedRecord } from '../../record/index.js'
import type { RecordKind } from '../../schema/index.js'
import { homeShards, parseShardTopic, shardCountsHeard, shardOf, shardTopic, type HomeShards, type ShardTopicKind } from '../../shard/index.js'
import { TOPICS } from './constants.js'
import { parseTagTopic } from './tag-topics.js'

/*
 * Where a record travels and whether it arrived where it should (protocols/gossip-v1.md, "Shards"):
 * a memory, its attestations and its anchors on the shard of the memory's author; a witness request
 * there and on the shard of each witness it addresses; a checkpoint on the shard of its log's signer;
 * each under the publishing node's own count. Key logs are network-wide (gossip-v1 §9) and never
 * pass here.
 */

/** The shard topic kind of each record kind. */
export const TOPIC_KIND_OF_RECORD: Record<RecordKind, ShardTopicKind> = {
  memory: 'memories',
  witness_request: 'witness-requests',
  attestation: 'attestations',
  anchor: 'anchors'
}

/** The record kind each shard topic kind carries (checkpoints are not records). */
export const RECORD_OF_TOPIC_KIND: Partial<Record<ShardTopicKind, RecordKind>> = {
  memories: 'memory',
  attestations: 'attestation',
  anchors: 'anchor'
}

/**
 * A node's home before it was told its shards: count 1, where every record is on one shard, and
 * listening on count 1 alone: a node that knows of no network yet has N̂ = 1, for which no peer within
 * the slack publishes under count 2 (shardCountsHeard); its shard service moves it once it knows more.
 */
export function initialHome (peerId: string): HomeShards {
  return homeShards([], 1, 1, peerId, shardCountsHeard(1))
}

/** The topics under `count` of the shards of `dids` (deduplicated, in order). */
export function topicsOfDids (count: number, kind: ShardTopicKind, dids: readonly string[]): string[] {
  return [...new Set(dids.map((did) => shardTopic(count, shardOf(did, count), kind)))]
}

/** The author of the memory whose canonical signed bytes these are (own stored bytes: no verification here). */
export function memoryAuthorOfBytes (bytes: Uint8Array): string | undefined {
  const { record } = decodeSignedRecord(bytes)
  return record.kind === 'memory' ? record.author.agent_id : undefined
}

/** The tags of the memory whose canonical signed bytes these are (own stored bytes: no verification here). */
export function memoryTagsOfBytes (bytes: Uint8Array): readonly string[] {
  const { record } = decodeSignedRecord(bytes)
  return record.kind === 'memory' ? record.content.tags : []
}

/** The dids whose shards a witness-request envelope travels on: the memory's author, then each addressed witness. */
export function witnessRequestDids (request: Uint8Array, memory: Uint8Array): string[] {
  const author = memoryAuthorOfBytes(memory)
  const { record } = decodeSignedRecord(request)
  const witnesses = record.kind === 'witness_request' ? record.witnesses ?? [] : []
  return [...(author === undefined ? [] : [author]), ...witnesses]
}



/**
 * Whether `topic` is a gossip-v1 topic: the key logs', any shard's of any count (§11.2) or any
 * tag's (§11.9). A node publishes on shards it does not subscribe to (an addressed witness's) and
 * on the topics of its memories' tags, and must track which peers do, so every such topic is
 * allowed, not only its own.
 */
export function isGossipTopic (topic: string): boolean {
  return topic === TOPICS.keyEvents || parseShardTopic(topic) !== undefined || parseTagTopic(topic) !== undefined
}
