import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import type { SignatureVerifier } from '../identity/index.js'
import { nodeCryptoVerifier } from '../fast-crypto/index.js'
import type { Keyring } from '../key-events/index.js'
import { DEFAULT_LISTEN } from './constants.js'
import { FETCH_TIMEOUT_MS } from './fetch/index.js'
import { MAX_CONNECTIONS, DEFAULT_CONNECTION_MONITOR, type ConnectionMonitorSettings } from './limits/index.js'
import { SEEN_TTL_MS, PeerPenalties, createScoreParams } from './gossip/index.js'
import { SYNC_PAGE_BYTES, SYNC_PAGE_SIZE, SYNC_PAGE_TIMEOUT_MS } from './sync/index.js'
import type { NetHost } from './host.js'
import { createLibp2pNode } from './libp2p-node.js'
import { openDhtDatastore } from './content-routing/index.js'
import type { LinkConditions } from './link/index.js'
import { IsnadNetwork } from './isnad-network.js'
import type { Network } from './network.js'
import { loadOrCreatePeerKey, peerKeyFromBytes } from './peer-key.js'
import { RecordGate } from './record-gate.js'

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
  /** @default SYNC_PAGE_BYTES */
  syncPageBytes?: number
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
    gate: new RecordGate({ host: init.host, verifier, clock, keys: { checkRecord: (signed, id) => init.keyring?.()?.checkRecord(signed, id) } }),
    keyring: init.keyring ?? (() => undefined),
    maxConnections: init.maxConnections ?? MAX_CONNECTIONS,
    connectionMonitor: init.connectionMonitor ?? DEFAULT_CONNECTION_MONITOR,
    penalties,
    clock,
    syncOnConnect: init.syncOnConnect ?? true,
    syncAfterHome: init.syncAfterHome ?? false,
    mdns: init.mdns ?? false,
    fetchTimeoutMs: init.fetchTimeoutMs ?? FETCH_TIMEOUT_MS,
    sync: { pageSize: init.syncPageSize ?? SYNC_PAGE_SIZE, pageTimeoutMs: init.syncPageTimeoutMs ?? SYNC_PAGE_TIMEOUT_MS, pageBytes: init.syncPageBytes ?? SYNC_PAGE_BYTES },
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

