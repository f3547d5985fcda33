import { multiaddr } from '@multiformats/multiaddr'
import type { NetworkStats, PeerSync } from '../operations/index.js'
import { IsnadError } from '../errors/index.js'
import type { Network, SyncResult } from '../net/index.js'

/*
 * The daemon's side of the operator's control over connections (src/operations/peer-control.ts): what
 * `isnad peers connect|disconnect|sync|stats` and POST /v1/peers/… do on the running network.
 */

/** Dials `address` (a multiaddr ending in /p2p/<peer id>); the peer id. */
export async function connectPeer (network: Network, address: string): Promise<string> {
  const peer = multiaddr(address).getComponents().findLast((c) => c.name === 'p2p')?.value ?? ''
  try {
    await network.dial(address)
  } catch (cause) {
    throw new IsnadError('PEER_UNREACHABLE', `cannot connect to ${address}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
  return peer
}

/** Closes every connection to `peer`; how many were open. A connection failing while it closes is closed all the same. */
export async function disconnectPeer (network: Network, peer: string): Promise<number> {
  const connections = network.libp2p.getConnections().filter((c) => c.remotePeer.toString() === peer)
  await Promise.all(connections.map(async (c) => { await c.close().catch(() => {}) }))
  return connections.length
}

function syncOf (peer: string, result?: SyncResult, error?: Error): PeerSync {
  return error !== undefined || result === undefined
    ? { peer, error: error?.message ?? 'no result' }
    : { peer, received: result.received, accepted: result.accepted }
}

/** Syncs with one peer, or every connected one; a failure with one peer is reported, not thrown. */
export async function syncPeers (network: Network, peer?: string): Promise<PeerSync[]> {
  if (peer === undefined) return (await network.syncAll()).map((s) => syncOf(s.peer, s.result, s.error))
  try {
    return [syncOf(peer, await network.sync(peer))]
  } catch (err) {
    return [syncOf(peer, undefined, err instanceof Error ? err : new Error(String(err)))]
  }
}

export function networkStatsOf (network: Network): NetworkStats {
  const { verifications, accepted, gossip, violations } = network.stats
  const { user, system } = process.cpuUsage()
  return {
    verifications, accepted: { ...accepted }, gossip: { ...gossip }, violations,
    peers: network.libp2p.getPeers().length,
    cpu_ms: Math.round((user + system) / 1000)
  }
}
