import { z } from 'zod'
import { parseShardTopic, type HomeShards } from '../../shard/index.js'

/**
 * Gossip health for the dashboard: each connected peer with its gossipsub score (negative after
 * invalid messages, gossip-v1 §6) and application penalty, and each topic's mesh size. A topic
 * with an empty mesh receives nothing by gossip; a peer with a negative score is being punished.
 */
export const GossipHealthSchema = z.strictObject({
  /** False when the node answering runs without the network (no daemon). */
  running: z.boolean(),
  peers: z.array(z.strictObject({
    id: z.string(),
    addresses: z.array(z.string()),
    score: z.number(),
    penalty: z.number()
  })),
  topics: z.array(z.strictObject({ topic: z.string(), mesh_peers: z.number().int().min(0) }))
}).meta({ id: 'GossipHealth' })

export type GossipHealth = z.infer<typeof GossipHealthSchema>

/** What a node's operations offer when they run on the network (the daemon's do). */
export interface GossipHealthSource {
  gossipHealth: () => GossipHealth
}

export function isGossipHealthSource (value: object): value is GossipHealthSource {
  return 'gossipHealth' in value && typeof value.gossipHealth === 'function'
}

export const OFFLINE_HEALTH: GossipHealth = { running: false, peers: [], topics: [] }

/** What gossip health reads of a running network (src/net's Network has it). */
export interface GossipState {
  readonly libp2p: { getConnections: () => ReadonlyArray<{ remotePeer: { toString: () => string }, remoteAddr: { toString: () => string } }> }
  readonly home: HomeShards
  peerScore: (peer: string) => number
  penalty: (peer: string) => number
  meshPeers: (topic: string) => string[]
  topics: () => string[]
}

/**
 * The topics whose mesh matters: the network-wide ones and those of the node's own count. Those of
 * the neighbouring counts (gossip-v1 "Shards": listened to so nodes with other estimates still
 * meet) are usually empty and would only raise false alarms.
 */
function topicsOfHealth (network: Pick<GossipState, 'topics' | 'home'>): string[] {
  return network.topics().filter((topic) => (parseShardTopic(topic)?.count ?? network.home.count) === network.home.count)
}

export function gossipHealthOf (network: GossipState): GossipHealth {
  const addresses = new Map<string, string[]>()
  for (const c of network.libp2p.getConnections()) {
    const id = c.remotePeer.toString()
    addresses.set(id, [...(addresses.get(id) ?? []), c.remoteAddr.toString()])
  }
  return {
    running: true,
    peers: [...addresses].map(([id, addrs]) => ({ id, addresses: addrs, score: network.peerScore(id), penalty: network.penalty(id) })),
    topics: topicsOfHealth(network).map((topic) => ({ topic, mesh_peers: network.meshPeers(topic).length }))
  }
}
