import { bootstrap } from '@libp2p/bootstrap'
import { StrictNoSign, gossipsub, type GossipSub } from '@libp2p/gossipsub'
import type { PeerScoreParams } from '@libp2p/gossipsub/score'
import { identify, type Identify } from '@libp2p/identify'
import type { KadDHT } from '@libp2p/kad-dht'
import type { Libp2p, PrivateKey, Transport } from '@libp2p/interface'
import { mdns } from '@libp2p/mdns'
import { noise } from '@libp2p/noise'
import { ping, type Ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { createLibp2p } from 'libp2p'
import {
  ALL_TOPICS, IDONTWANT_MIN_DATA_BYTES, MAX_GOSSIP_FRAME_BYTES, fastMsgIdFn, messageIdToString, msgIdFn, SCORE_THRESHOLDS
} from './gossip/index.js'
import { dhtService, type DhtServiceOptions } from './content-routing/index.js'
import { shapesTraffic, type LinkConditions, shapedTransport } from './link/index.js'
import { CONNECTION_LIMITS, GOSSIP_RESOURCE_LIMITS } from './limits/index.js'
import { guardedYamux } from './yamux-guard.js'

/** The libp2p services of an isnad node. */
export interface NetServices extends Record<string, unknown> {
  identify: Identify
  ping: Ping
  pubsub: GossipSub
  /** Content routing by CID (protocols/content-routing-v1.md); absent on a node made without it. */
  dht?: KadDHT
}

export type IsnadLibp2p = Libp2p<NetServices>

export interface Libp2pNodeOptions {
  privateKey: PrivateKey
  listen: readonly string[]
  announce: readonly string[]
  bootstrap: readonly string[]
  mdns: boolean
  maxConnections: number
  scoreParams: Partial<PeerScoreParams>
  seenTtlMs: number
  heartbeatIntervalMs: number
  /** Simulated latency and loss on every libp2p connection (docs/simulation.md); none when absent. */
  linkConditions?: LinkConditions
  /** The DHT's k and datastore (content-routing-v1 §1); `false`: no DHT. @default k 20, memory */
  dht?: DhtServiceOptions | false
}

/**
 * A libp2p 3 node as gossip-v1 §1 describes it: TCP and WebSockets, Noise, Yamux, identify, ping,
 * bootstrap and mDNS discovery, gossipsub configured per gossip-v1 §3 and §6, and the isnad DHT
 * (content-routing-v1 §1). Not started.
 */
export async function createLibp2pNode (options: Libp2pNodeOptions): Promise<IsnadLibp2p> {
  return await createLibp2p<NetServices>({
    privateKey: options.privateKey,
    start: false,
    addresses: { listen: [...options.listen], announce: [...options.announce] },
    transports: withLinkConditions([tcp(), webSockets()], options.linkConditions),
    connectionEncrypters: [noise()],
    streamMuxers: [guardedYamux()], // yamux that a connection closed mid-open cannot crash (yamux-guard.ts)
    peerDiscovery: [
      ...(options.bootstrap.length > 0 ? [bootstrap({ list: [...options.bootstrap] })] : []),
      ...(options.mdns ? [mdns()] : [])
    ],
    connectionManager: { ...CONNECTION_LIMITS, maxConnections: options.maxConnections }, // docs/limits.md
    // Pings are spread over the interval by the network (connection-pings.ts), not sent in one burst.
    connectionMonitor: { enabled: false },
    services: {
      identify: identify(),
      ping: ping(),
      pubsub: gossipsub({
        ...GOSSIP_RESOURCE_LIMITS, // docs/limits.md
        globalSignaturePolicy: StrictNoSign, // gossip-v1 §3: payloads carry their own signatures
        msgIdFn,
        fastMsgIdFn,
        msgIdToStrFn: messageIdToString,
        allowedTopics: [...ALL_TOPICS],
        maxInboundDataLength: MAX_GOSSIP_FRAME_BYTES, // gossip-v1 G1: the frame, not the data
        allowPublishToZeroTopicPeers: true,
        ignoreDuplicatePublishError: true,
        emitSelf: false,
        floodPublish: true,
        doPX: false,
        scoreParams: options.scoreParams,
        scoreThresholds: SCORE_THRESHOLDS,
        seenTTL: options.seenTtlMs,
        heartbeatInterval: options.heartbeatIntervalMs,
        idontwantMinDataSize: IDONTWANT_MIN_DATA_BYTES // gossip-v1 §3
      }),
      ...(options.dht === false ? {} : { dht: dhtService(options.dht) })
    }
  })
}

function withLinkConditions<C> (transports: Array<(components: C) => Transport>, conditions: LinkConditions | undefined): Array<(components: C) => Transport> {
  return conditions === undefined || !shapesTraffic(conditions) ? transports : transports.map((t) => shapedTransport(t, conditions))
}
