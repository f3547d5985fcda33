import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PeerId, PrivateKey } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import type { CID } from 'multiformats/cid'
import type { SignatureVerifier } from '../identity/index.js'
import { nodeCryptoVerifier } from '../native/index.js'
import type { KeyLog, Keyring } from '../key-events/index.js'
import type { SignedCheckpoint } from '../merkle/index.js'
import type { RecordKind } from '../schema/index.js'
import type { HomeShards } from '../shard/index.js'
import { DEFAULT_LISTEN } from './constants.js'
import { FETCH_TIMEOUT_MS } from './fetch/index.js'
import { MAX_CONNECTIONS, DEFAULT_CONNECTION_MONITOR, type ConnectionMonitorSettings } from './limits/index.js'
import { SEEN_TTL_MS, PeerPenalties, createScoreParams } from './gossip/index.js'
import { SYNC_PAGE_SIZE, SYNC_PAGE_TIMEOUT_MS } from './sync/index.js'
import type { NetStats } from './net-context.js'
import type { BlockFetchResult, FetchResult } from './fetch/index.js'
import type { PublishOutcome } from './gossip/index.js'
import type { NetHost } from './host.js'
import { createLibp2pNode, type IsnadLibp2p } from './libp2p-node.js'
import { openDhtDatastore } from './content-routing/index.js'
import type { LinkConditions } from './link/index.js'
import { IsnadNetwork } from './isnad-network.js'
import { loadOrCreatePeerKey, peerKeyFromBytes } from './peer-key.js'
import { RecordGate } from './record-gate.js'
import type { SyncResult } from './sync/index.js'

/*
 * The network layer of an isnad node: gossip (protocols/gossip-v1.md), fetch
 * (fetch-v1.md), sync (sync-v1.md) and content routing (content-routing-v1.md) over js-libp2p 3. It verifies every record it receives once
 * and hands verified records to a NetHost, which the node implements.
 */

/** An isnad node on the network. */
export interface Network {
  readonly peerId: PeerId
  /** The underlying libp2p node, for what this interface does not cover. */
  readonly libp2p: IsnadLibp2p
  readonly stats: NetStats
  multiaddrs: () => Multiaddr[]
  dial: (target: Multiaddr | string | PeerId) => Promise<void>
  /**
   * Gossips a stored memory, attestation or anchor (its canonical signed bytes, as stored) on the
   * topic of its kind; the bytes are not decoded here (peers' validators check kind against topic).
   */
  publishRecord: (kind: RecordKind, bytes: Uint8Array) => Promise<PublishOutcome>
  /** Gossips a witness request together with the memory it names (gossip-v1 §4). */
  publishWitnessRequest: (request: Uint8Array, memory: Uint8Array) => Promise<PublishOutcome>
  publishCheckpoint: (checkpoint: SignedCheckpoint) => Promise<PublishOutcome>
  /** Gossips an identity's whole key log (gossip-v1 §9). */
  publishKeyLog: (log: KeyLog) => Promise<PublishOutcome>
  /** Publishes bytes unchecked: tests and tools only. */
  publishRaw: (topic: string, data: Uint8Array) => Promise<PublishOutcome>
  /** The node's home shards (gossip-v1 "Shards"): the count it publishes under and the shards it subscribes to. */
  readonly home: HomeShards
  /** Moves the node's subscriptions to other home shards (its agents or follows changed, or its count). */
  setHome: (home: HomeShards) => void
  /** The gossip topics the node subscribes to now. */
  topics: () => string[]
  /** Fetches records by id from a peer; verified new ones are handed to the host (source `fetch`). */
  fetch: (peer: PeerId | string, ids: readonly string[]) => Promise<FetchResult>
  /** Fetches blocks of anchored content by CID from a peer, each re-hashed against its CID (fetch-v1 §8). */
  fetchBlocks: (peer: PeerId | string, cids: readonly CID[]) => Promise<BlockFetchResult>
  /** Catches up with a peer from the cursor saved for it (source `sync`). */
  sync: (peer: PeerId | string) => Promise<SyncResult>
  syncAll: () => Promise<Array<{ peer: string, result?: SyncResult, error?: Error }>>
  /** gossipsub score of a peer (gossip-v1 §6); negative after invalid messages. */
  peerScore: (peer: PeerId | string) => number
  /** Application penalty of a peer for fetch/sync violations (≥ 0, decaying). */
  penalty: (peer: PeerId | string) => number
  meshPeers: (topic: string) => string[]
  /** Graceful stop: in-flight exchanges aborted, pending hand-overs awaited, libp2p stopped. */
  stop: () => Promise<void>
}

export interface NetworkInit {
  /** The node this network serves. */
  host: NetHost
  /** @default nodeCryptoVerifier */
  verifier?: SignatureVerifier
  /** Milliseconds since the epoch, for freshness checks. @default Date.now */
  clock?: () => number
  /** The libp2p peer key, or its protobuf bytes. Takes precedence over `peerKeyPath`. */
  peerKey?: PrivateKey | Uint8Array
  /** A peer key file under `keys/`, created (mode 0600) when missing. Without either: a fresh key. */
  peerKeyPath?: string
  /** @default DEFAULT_LISTEN (loopback, ephemeral TCP and WebSocket ports) */
  listen?: readonly string[]
  /** Addresses to announce instead of the listen addresses. @default [] */
  announce?: readonly string[]
  /** Bootstrap peers' multiaddrs (with /p2p/<id>). @default [] */
  bootstrap?: readonly string[]
  /** Discover and dial peers on the local network. @default false */
  mdns?: boolean
  /** @default MAX_CONNECTIONS */
  maxConnections?: number
  /** Sync with every peer that speaks sync-v1 once it is identified. @default true */
  syncOnConnect?: boolean
  /**
   * Syncs wait until setHome is first called: a sync asks peers for the home shards' records
   * (sync-v1 §9), and a daemon computes them after its network started. @default false
   */
  syncAfterHome?: boolean
  /** gossipsub seen-cache TTL. @default SEEN_TTL_MS */
  seenTtlMs?: number
  /** gossipsub heartbeat. @default 1000 */
  heartbeatIntervalMs?: number
  /** IPs exempt from the IP-colocation score penalty. @default ['127.0.0.1', '::1'] */
  ipColocationWhitelist?: readonly string[]
  /** @default FETCH_TIMEOUT_MS */
  fetchTimeoutMs?: number
  /** @default SYNC_PAGE_TIMEOUT_MS */
  syncPageTimeoutMs?: number
  /** @default SYNC_PAGE_SIZE */
  syncPageSize?: number
  /** Start listening at once. @default true */
  start?: boolean
  /**
   * The node's keyring, looked up when needed (a node may reopen it): gossiped key logs go into it,
   * and received records of keys rotated out or revoked at their time are ignored (record-v1 K12).
   */
  keyring?: () => Keyring | undefined
  /** Simulated latency, jitter and loss on every libp2p connection (link-conditions.ts); simulations only. */
  linkConditions?: LinkConditions
  /** Liveness pings of every connection (connection-pings.ts). @default DEFAULT_CONNECTION_MONITOR: a ping every 10 s, a failed ping closes the connection */
  connectionMonitor?: ConnectionMonitorSettings
  /**
   * The DHT (protocols/content-routing-v1.md): `datastorePath`, a LevelDB directory for its provider
   * records, so what this node announced is re-provided after a restart (memory when absent); `k`,
   * Kademlia's k, smaller only in tests and benches that need many hops. `false`: no DHT, so the
   * node makes no connection but those it is told to (tests of gossip and sync over a fixed topology:
   * a DHT dials peers its lookups find). @default memory, k DHT_K
   */
  dht?: { datastorePath?: string, k?: number } | false
}

/** Creates (and by default starts) the network layer of a node. */
export async function createNetwork (init: NetworkInit): Promise<Network> {
  const clock = init.clock ?? Date.now
  const verifier = init.verifier ?? nodeCryptoVerifier
  const privateKey = await peerKeyOf(init)
  const penalties = new PeerPenalties(clock)
  const dht = init.dht === false ? undefined : init.dht ?? {}
  const datastore = dht?.datastorePath === undefined ? undefined : await openDhtDatastore(dht.datastorePath)
  const libp2p = await createLibp2pNode({
    privateKey,
    listen: init.listen ?? DEFAULT_LISTEN,
    announce: init.announce ?? [],
    bootstrap: init.bootstrap ?? [],
    mdns: init.mdns ?? false,
    maxConnections: init.maxConnections ?? MAX_CONNECTIONS,
    scoreParams: createScoreParams({
      appSpecificScore: (peerId) => penalties.score(peerId),
      ipColocationWhitelist: init.ipColocationWhitelist ?? ['127.0.0.1', '::1']
    }),
    seenTtlMs: init.seenTtlMs ?? SEEN_TTL_MS,
    heartbeatIntervalMs: init.heartbeatIntervalMs ?? 1000,
    ...(init.linkConditions === undefined ? {} : { linkConditions: init.linkConditions }),
    dht: dht === undefined ? false : { ...(dht.k === undefined ? {} : { k: dht.k }), ...(datastore === undefined ? {} : { datastore }) }
  }).catch(async (err: unknown) => { await datastore?.close(); throw err })
  const network = new IsnadNetwork({
    libp2p,
    verifier,
    host: init.host,
    gate: new RecordGate({ host: init.host, verifier, clock, keyCheck: (signed, id) => init.keyring?.()?.checkRecord(signed, id) }),
    keyring: init.keyring ?? (() => undefined),
    maxConnections: init.maxConnections ?? MAX_CONNECTIONS,
    connectionMonitor: init.connectionMonitor ?? DEFAULT_CONNECTION_MONITOR,
    penalties,
    clock,
    syncOnConnect: init.syncOnConnect ?? true,
    syncAfterHome: init.syncAfterHome ?? false,
    mdns: init.mdns ?? false,
    fetchTimeoutMs: init.fetchTimeoutMs ?? FETCH_TIMEOUT_MS,
    sync: { pageSize: init.syncPageSize ?? SYNC_PAGE_SIZE, pageTimeoutMs: init.syncPageTimeoutMs ?? SYNC_PAGE_TIMEOUT_MS },
    // The DHT's LevelDB closes after libp2p stopped the DHT (its re-provide runs until then).
    ...(datastore === undefined ? {} : { afterStop: async () => { await datastore.close() } })
  })
  if (init.start !== false) {
    // A start that fails (a busy port) leaves nothing open: the next start may open the DHT's LevelDB.
    await network.start().catch(async (err: unknown) => { await datastore?.close().catch(() => {}); throw err })
  }
  return network
}

async function peerKeyOf (init: NetworkInit): Promise<PrivateKey> {
  if (init.peerKey instanceof Uint8Array) return peerKeyFromBytes(init.peerKey)
  if (init.peerKey !== undefined) return init.peerKey
  if (init.peerKeyPath !== undefined) return await loadOrCreatePeerKey(init.peerKeyPath)
  return await generateKeyPair('Ed25519')
}

export * from './constants.js'
export type { AcceptSource, NetHost, RecordPage } from './host.js'
export type { NetStats } from './net-context.js'
export type { BlockFetchResult, FetchResult } from './fetch/index.js'
export { FETCH_BLOCKS_PROTOCOL, BlockRequestSchema } from './fetch/index.js'
export type { PublishOutcome } from './gossip/index.js'
export type { SyncResult } from './sync/index.js'
export type { IsnadLibp2p, NetServices } from './libp2p-node.js'
export type { ConnectionMonitorSettings } from './limits/index.js'
export type { GossipDecision } from './gossip/index.js'
export { GossipValidator } from './gossip/index.js'
export { RecordGate, peekRecordId, type GateResult } from './record-gate.js'
export { loadOrCreatePeerKey, peerKeyFromBytes, peerKeyToBytes } from './peer-key.js'
export { SCORE_THRESHOLDS, PeerPenalties, UsefulPeers, USEFUL_PEER_TAG, USEFUL_PEER_TAG_VALUE, createScoreParams } from './gossip/index.js'
export { CONNECTION_LIMITS, GOSSIP_RESOURCE_LIMITS, PROTOCOL_RATE_LIMITS, RateLimiter, rateLimitedHandler } from './limits/index.js'
export { fastMsgIdFn, messageIdOf, msgIdFn } from './gossip/index.js'
export {
  decodeWitnessEnvelope, encodeWitnessEnvelope, FetchRequestSchema, SyncHeaderSchema, SyncRequestSchema, WitnessEnvelopeSchema
} from './wire/index.js'
export { IsnadNetwork } from './isnad-network.js'
export {
  ContentRouter, HopCounter, type ContentRouterOptions, type FoundProvider, type ProvideStats, type RoutedFetch, type RoutedNetwork
} from './content-routing/index.js'
export {
  createLinkSchedule, retransmissionDelayMs, retransmissionTimeoutMs, shapesTraffic, streamSeed, DUPACK_THRESHOLD, MAX_RETRANSMISSIONS, MAX_RTO_MS, MIN_RTO_MS, SEGMENT_BYTES,
  type LinkConditions, type LinkSchedule
} from './link/index.js'
export { shapedTransport } from './link/index.js'
export { GossipHealthSchema, gossipHealthOf, isGossipHealthSource, OFFLINE_HEALTH, type GossipHealth, type GossipHealthSource } from './gossip/index.js'
