import type { TopicScoreParams } from '@libp2p/gossipsub/score'
import { isGossipTopic } from './shard-routing.js'
import { TOPIC_PARAMS } from './scoring.js'

/*
 * gossip-v1 §11: shard topics, 8,191 shards × 5 kinds, allowed and scored without listing them.
 * gossipsub takes its allowed topics as a list it copies into a Set, and its topic score parameters
 * as an object it copies topic by topic: listing every shard topic cost each node ~0.7 s and tens
 * of megabytes at creation. Instead the Set is replaced by the rule itself (gossipsub only asks it
 * `has`), and a topic's score parameters are added when the node joins it (gossipsub scores only
 * the topics a node is subscribed to: messages on others are not validated).
 */

/** The gossipsub fields this module adjusts (a GossipSub of @libp2p/gossipsub 17 has both). */
interface AdmissionFields {
  allowedTopics: { has: (topic: string) => boolean } | null
  score: { params: { topics: Record<string, TopicScoreParams> } }
}

function hasAdmissionFields (value: unknown): value is AdmissionFields {
  const candidate = value as Partial<AdmissionFields> | null
  return typeof candidate?.allowedTopics?.has === 'function' && typeof candidate.score?.params?.topics === 'object'
}

/**
 * Makes `pubsub` allow every gossip-v1 topic (isGossipTopic) and returns the function that gives a
 * topic the node joins the score parameters of gossip-v1 §6. Throws if gossipsub no longer has the
 * fields: a node that silently allowed no shard topic would never hear its shards.
 */
export function admitGossipTopics (pubsub: unknown): (topic: string) => void {
  if (!hasAdmissionFields(pubsub)) throw new Error('this gossipsub has no allowedTopics or score parameters: shard topics cannot be admitted')
  pubsub.allowedTopics = { has: isGossipTopic }
  const topics = pubsub.score.params.topics
  return (topic) => { topics[topic] ??= { ...TOPIC_PARAMS } }
}
