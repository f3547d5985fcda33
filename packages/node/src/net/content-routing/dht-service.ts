import { KEEP_ALIVE, type AbortOptions, type PeerStore } from '@libp2p/interface'
import { kadDHT, passthroughMapper, type KadDHT, type KadDHTComponents } from '@libp2p/kad-dht'
import { LevelDatastore } from 'datastore-level'
import { DHT_K, DHT_PROTOCOL } from './constants.js'

export interface DhtServiceOptions {
  /** Kademlia's k (content-routing-v1 C3); smaller only in tests and benches that need many hops. @default DHT_K */
  k?: number
  /**
   * Where the DHT keeps its provider records, this node's own included (the list it re-provides):
   * a LevelDB directory, opened by openDhtDatastore. Absent: libp2p's memory datastore, so a restart
   * forgets what this node announced until its records are stored again.
   */
  datastore?: LevelDatastore
}

/**
 * The DHT service of an isnad node (content-routing-v1 §1): its own protocol id, so it never joins
 * the public IPFS DHT; server mode from the start, because isnad nodes are dialable on the addresses
 * they listen on, loopback and LAN included (kad-dht would otherwise stay a client until it sees a
 * public address); and every address kept in the peer records it exchanges (the default mapper drops
 * private ones, which would leave loopback and LAN networks with no route at all). It keeps no peer
 * alive (see withoutKeepAlive).
 */
export function dhtService (options: DhtServiceOptions = {}): (components: KadDHTComponents) => KadDHT {
  const create = kadDHT({
    protocol: DHT_PROTOCOL,
    clientMode: false,
    peerInfoMapper: passthroughMapper,
    kBucketSize: options.k ?? DHT_K,
    // A lookup asks the routing table as it is, without waiting for the node's first self-query (kad-dht
    // holds every query until it ran): a node that just connected looks up at once, and one with no
    // DHT peer at all answers NOT_FOUND at once instead of at the lookup's time limit.
    allowQueryWithZeroPeers: true,
    logPrefix: 'libp2p:isnad-dht',
    datastorePrefix: '/isnad-dht',
    metricsPrefix: 'isnad_dht'
  })
  const datastore = options.datastore
  return (components) => {
    const peerStore = withoutKeepAlive(components.peerStore)
    return create(new Proxy(components, {
      get: (target, property, receiver) => {
        if (property === 'peerStore') return peerStore
        // Only the DHT's records go to the LevelDB: libp2p's peer store stays in memory as before.
        if (property === 'datastore' && datastore !== undefined) return datastore
        return Reflect.get(target, property, receiver) as unknown
      }
    }))
  }
}

/**
 * The peer store as the DHT sees it, minus the keep-alive tags it puts on its 20 closest peers: with
 * them libp2p re-dials those peers whenever they disconnect, so an operator's `isnad peers disconnect`
 * would not hold and the connection pruner (docs/limits.md) could not let them go. Lookups dial the
 * peers they need; the DHT's routing table keeps its peers whether connected or not.
 */
function withoutKeepAlive (peerStore: PeerStore): PeerStore {
  const merge: PeerStore['merge'] = async (peer, data, options) => {
    const tags = data.tags === undefined ? undefined : Object.fromEntries(Object.entries(data.tags).filter(([name]) => !name.startsWith(KEEP_ALIVE)))
    return await peerStore.merge(peer, tags === undefined ? data : { ...data, tags }, options)
  }
  return new Proxy(peerStore, {
    get: (target, property) => {
      if (property === 'merge') return merge
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    }
  })
}

/** Opens the DHT's LevelDB directory (created when missing). */
export async function openDhtDatastore (location: string, options?: AbortOptions): Promise<LevelDatastore> {
  const datastore = new LevelDatastore(location)
  options?.signal?.throwIfAborted()
  await datastore.open()
  return datastore
}
