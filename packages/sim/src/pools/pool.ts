import type { NetStats } from 'isnad/engine'

/*
 * A pool of simulated nodes as the driver sees it. Every node is a real isnad daemon (LocalNode on
 * LevelDB with its ledger, libp2p, the HTTP API); the driver plays the scenario through each node's
 * HTTP API (url + bearer token) and uses the pool only for what a person would do at the machine:
 * connect, disconnect, stop and restart nodes, and read their counters.
 */

/** How the driver reaches one node. */
export interface SimNodeInfo {
  /** The node's HTTP API, e.g. http://127.0.0.1:39123 */
  url: string
  token: string
  peerId: string
  /** libp2p addresses other nodes dial. */
  multiaddrs: string[]
  /** The did:key of the node's agent (its default key). */
  agent: string
  /** What the node could not set up as the scenario asked (e.g. tc netem), for the results' notes. */
  notes?: string[]
  /** The node's control channel (node-supervisor.ts: leave, join), when it runs under a supervisor. */
  control?: string
}

/** Counters of one node's network layer (src/net NetStats), summed over its restarts. */
export interface NodeCounters {
  gossipAccepted: number
  gossipIgnored: number
  gossipRejected: number
  verifications: number
  recordsByGossip: number
  recordsByFetch: number
  recordsBySync: number
  /** CPU time charged to this node: its process's CPU divided by the nodes that process hosts. */
  cpuMs: number
}

export interface NodePool {
  /** Whether the runner can connect, disconnect, stop and restart nodes (churn and partitions). */
  readonly controls: boolean
  readonly size: number
  info: (index: number) => SimNodeInfo
  dial: (from: number, target: string) => Promise<void>
  /** Closes every connection of `from` to the given peer. */
  hangUp: (from: number, peerId: string) => Promise<void>
  /** Peer ids `index` is connected to. */
  connectedPeers: (index: number) => Promise<string[]>
  /** Graceful stop; the node's home is kept for a restart. */
  stop: (index: number) => Promise<void>
  /** Restarts a stopped node on its home (same keys, same data); its new API address. */
  restart: (index: number) => Promise<SimNodeInfo>
  /** Asks the node to catch up with every connected peer (sync-v1). */
  syncAll: (index: number) => Promise<void>
  counters: () => Promise<NodeCounters[]>
  /** True once every node's gossipsub meshes are formed and connect the whole network (when the runner can tell). */
  meshesReady?: () => Promise<boolean>
  close: () => Promise<void>
}

export const EMPTY_COUNTERS: NodeCounters = Object.freeze({
  gossipAccepted: 0, gossipIgnored: 0, gossipRejected: 0, verifications: 0, recordsByGossip: 0, recordsByFetch: 0, recordsBySync: 0, cpuMs: 0
})

/** A node's counters from its network's (src/net NetStats, or the same over HTTP: GET /v1/network/stats); CPU is added by the pool. */
export function countersFrom (stats: Pick<NetStats, 'verifications' | 'accepted' | 'gossip'>): NodeCounters {
  return {
    gossipAccepted: stats.gossip.accepted,
    gossipIgnored: stats.gossip.ignored,
    gossipRejected: stats.gossip.rejected,
    verifications: stats.verifications,
    recordsByGossip: stats.accepted.gossip,
    recordsByFetch: stats.accepted.fetch,
    recordsBySync: stats.accepted.sync,
    cpuMs: 0
  }
}

export function addCounters (a: NodeCounters, b: NodeCounters): NodeCounters {
  const sum = { ...a }
  for (const key of Object.keys(sum) as Array<keyof NodeCounters>) sum[key] += b[key]
  return sum
}

/** The node at `index` of a pool's list; RangeError when the scenario names a node the pool does not have. */
export function nodeAt<T> (nodes: readonly T[], index: number): T {
  const node = nodes[index]
  if (node === undefined) throw new RangeError(`no simulated node ${index}`)
  return node
}
