import { multiaddr } from '@multiformats/multiaddr'
import { z } from 'zod'

/*
 * An operator's control over the node's connections (`isnad peers connect|disconnect|sync|stats`,
 * POST /v1/peers/…, GET /v1/network/stats): connect to a peer by address, hang up on one, catch up
 * with peers by sync-v1, and read the network counters. Only a node on the network (the daemon)
 * offers it; the simulation's docker runner plays churn and partitions through it.
 */

function isMultiaddr (text: string): boolean {
  try {
    multiaddr(text)
    return true
  } catch {
    return false
  }
}

const peerId = z.string().min(1).max(128).regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'a base58btc libp2p peer id')

export const ConnectPeerBodySchema = z.strictObject({
  /** A multiaddr ending in /p2p/<peer id>, e.g. /ip4/10.0.0.5/tcp/4501/p2p/12D3KooW… */
  address: z.string().min(1).max(1024).refine(isMultiaddr, 'not a multiaddr').refine((a) => a.includes('/p2p/'), 'the address must end in /p2p/<peer id>')
}).meta({ id: 'ConnectPeerBody' })

export const DisconnectPeerBodySchema = z.strictObject({ peer: peerId }).meta({ id: 'DisconnectPeerBody' })

export const SyncPeersBodySchema = z.strictObject({
  /** One connected peer; absent: every connected peer. */
  peer: peerId.optional()
}).meta({ id: 'SyncPeersBody' })

export const ConnectedPeerSchema = z.strictObject({ peer: z.string() }).meta({ id: 'ConnectedPeer' })
export const DisconnectedPeerSchema = z.strictObject({ peer: z.string(), closed: z.number().int().min(0) }).meta({ id: 'DisconnectedPeer' })

export const PeerSyncSchema = z.strictObject({
  peer: z.string(),
  /** Records the peer sent, and those new to this node. */
  received: z.number().int().min(0).optional(),
  accepted: z.number().int().min(0).optional(),
  /** Why the sync with this peer failed (the others go on). */
  error: z.string().optional()
}).meta({ id: 'PeerSync' })

export const PeerSyncsSchema = z.strictObject({ syncs: z.array(PeerSyncSchema) }).meta({ id: 'PeerSyncs' })

const count = z.number().int().min(0)

/** The network layer's counters since the node started (src/net NetStats). */
export const NetworkStatsSchema = z.strictObject({
  /** Signature verifications of received records. */
  verifications: count,
  /** Records stored, by how they arrived. */
  accepted: z.strictObject({ gossip: count, fetch: count, sync: count }),
  /** Gossip messages by validation outcome. */
  gossip: z.strictObject({ accepted: count, ignored: count, rejected: count }),
  /** Fetch and sync protocol violations by peers. */
  violations: count,
  /** Connected peers now. */
  peers: count,
  /** CPU time of the node's process (user + system) since it started, in ms. */
  cpu_ms: z.number().min(0),
  /**
   * The witness service since the daemon started (protocols/witness-draw-v1.md; summed over nodes,
   * the network's witness cost per memory): memories received and evaluated, memories its agents were
   * drawn for, memories the witness budget skipped, requests and attestations its agents signed
   * (`drawn_attestations` carry a draw), private checks due and asked.
   */
  witness: z.strictObject({
    memories: count,
    drawn: count,
    skipped: z.strictObject({ 'per-author': count, 'per-minute': count }),
    requests: count,
    attestations: count,
    drawn_attestations: count,
    private_checks: z.strictObject({ due: count, asked: count, failed: count })
  }).optional()
}).meta({ id: 'NetworkStats' })

export type PeerSync = z.infer<typeof PeerSyncSchema>
export type NetworkStats = z.infer<typeof NetworkStatsSchema>

/** What a node's operations offer when they run on the network (the daemon's do). */
export interface PeerControl {
  /** Dials a peer (PEER_UNREACHABLE when it cannot be reached); its peer id. */
  connectPeer: (address: string) => Promise<string>
  /** Closes every connection to the peer; how many there were. */
  disconnectPeer: (peer: string) => Promise<number>
  /** Catches up with one connected peer, or all of them (sync-v1). */
  syncPeers: (peer?: string) => Promise<PeerSync[]>
  networkStats: () => Promise<NetworkStats>
}

export function isPeerControl (value: object): value is PeerControl {
  return 'connectPeer' in value && typeof value.connectPeer === 'function' && 'networkStats' in value && typeof value.networkStats === 'function'
}
