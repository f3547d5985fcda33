import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { MemoryRecord } from '../../schema/index.js'
import type { GossipDecision } from './gossip-decision.js'
import type { RecordGate } from '../record-gate.js'

/*
 * Tag topics (protocols/gossip-v1.md §11.9): a memory also travels on the topic of each of its
 * first MAX_TAG_TOPICS_PER_MEMORY tags, `isnad/v1/tags/<hash>/memories`, so a node that follows a
 * tag hears its new memories by gossip, not only what its peers hold when it syncs. Only the
 * memory: its attestations and anchors travel on its author's shard (§11.3) and reach a tag's
 * follower by sync by interest (sync-v1 §9). The author's node publishes there, under a shard
 * count above 1 (under count 1 every node hears every memory already).
 */

/** @default 4 — the tags of a memory (its first ones) whose topics it is published on: a memory costs at most this many more messages. */
export const MAX_TAG_TOPICS_PER_MEMORY = 4
/** @default 64 — tag topics a node subscribes to (its first followed tags); the others are served by sync alone. */
export const MAX_TAG_TOPICS = 64

const PREFIX = 'isnad/v1/tags/'
const SUFFIX = '/memories'
const DOMAIN = 'isnad/tag/v1\0'
/** 32 hex digits: the first 16 bytes of the hash. */
const HASH = /^[0-9a-f]{32}$/
const encoder = new TextEncoder()

/** The hash a tag's topic carries: the first 16 bytes of SHA-256(`isnad/tag/v1\0` ‖ tag as UTF-8), in hex. */
export function tagHash (tag: string): string {
  return bytesToHex(sha256(encoder.encode(DOMAIN + tag)).subarray(0, 16))
}

/** The topic of a tag's memories. */
export function tagTopic (tag: string): string {
  return `${PREFIX}${tagHash(tag)}${SUFFIX}`
}

/** The tag hash a topic names, or undefined for a topic that is not a tag topic (§11.9's spelling only). */
export function parseTagTopic (topic: string): string | undefined {
  if (!topic.startsWith(PREFIX) || !topic.endsWith(SUFFIX)) return undefined
  const hash = topic.slice(PREFIX.length, topic.length - SUFFIX.length)
  return HASH.test(hash) ? hash : undefined
}

/** The tags a memory is published under: its first MAX_TAG_TOPICS_PER_MEMORY distinct ones. */
export function publishedTags (tags: readonly string[]): string[] {
  return [...new Set(tags)].slice(0, MAX_TAG_TOPICS_PER_MEMORY)
}

/** The topics a node subscribes to for the tags it follows: the first MAX_TAG_TOPICS. */
export function followedTagTopics (tags: readonly string[]): string[] {
  return [...new Set(tags)].slice(0, MAX_TAG_TOPICS).map(tagTopic)
}

/**
 * gossip-v1 R17 on a tag topic whose hash is `hash`: R1–R7 as on the memories topic, then the
 * memory must carry a tag among its published ones (publishedTags) that hashes to the topic's.
 * Else Reject: the sender had the memory's tags and could have checked.
 */
export async function validateTagMemory (gate: RecordGate, data: Uint8Array, hash: string): Promise<GossipDecision> {
  const checked = await gate.check(data, 'memory') // gossip-v1 R1–R7
  switch (checked.status) {
    case 'known': return { result: 'ignore', reason: `record ${checked.id} is already stored` } // R5
    case 'ignored': return { result: 'ignore', reason: checked.error.message } // R7
    case 'invalid': return { result: 'reject', reason: `${checked.error.code}: ${checked.error.message}` }
  }
  const record = checked.record.signed.record as MemoryRecord
  if (!publishedTags(record.content.tags).some((tag) => tagHash(tag) === hash)) {
    return { result: 'reject', reason: `memory ${checked.id} has no tag among its first ${MAX_TAG_TOPICS_PER_MEMORY} that hashes to ${hash}` }
  }
  return { result: 'accept', records: [checked.record] }
}
