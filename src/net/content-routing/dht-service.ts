import type { AbortOptions } from '@libp2p/interface'
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
 * private ones, which would leave loopback and LAN networks with no route at all).
 */
export function dhtService (options: DhtServiceOptions = {}): (components: KadDHTComponents) => KadDHT {
  const create = kadDHT({
    protocol: DHT_PROTOCOL,
    clientMode: false,
    peerInfoMapper: passthroughMapper,
    kBucketSize: options.k ?? DHT_K,
    logPrefix: 'libp2p:isnad-dht',
    datastorePrefix: '/isnad-dht',
    metricsPrefix: 'isnad_dht'
  })
  const datastore = options.datastore
  if (datastore === undefined) return create
  // Only the DHT's records go to the LevelDB: libp2p's peer store stays in memory as before.
  return (components) => create(new Proxy(components, {
    get: (target, property, receiver) => property === 'datastore' ? datastore : Reflect.get(target, property, receiver) as unknown
  }))
}

/** Opens the DHT's LevelDB directory (created when missing). */
export async function openDhtDatastore (location: string, options?: AbortOptions): Promise<LevelDatastore> {
  const datastore = new LevelDatastore(location)
  options?.signal?.throwIfAborted()
  await datastore.open()
  return datastore
}
