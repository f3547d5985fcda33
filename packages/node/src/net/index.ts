/*
 * The network layer of an isnad node: gossip (protocols/gossip-v1.md), fetch
 * (fetch-v1.md), sync (sync-v1.md) and content routing (content-routing-v1.md) over js-libp2p 3. It verifies every record it receives once
 * and hands verified records to a NetHost, which the node implements.
 */

export type { Network } from './network.js'
export { createNetwork, type NetworkInit } from './create-network.js'
export * from './constants.js'
export type { AcceptSource, NetHost, RecordPage } from './host.js'
export type { NetStats } from './net-context.js'
export type { BlockFetchResult, EvidenceFetchResult, FetchResult } from './fetch/index.js'
export { FETCH_BLOCKS_PROTOCOL, FETCH_EVIDENCE_PROTOCOL, BlockRequestSchema, MAX_EVIDENCE_RECORDS } from './fetch/index.js'
export type { PublishOutcome } from './gossip/index.js'
export type { SyncResult } from './sync/index.js'
export type { IsnadLibp2p, NetServices } from './libp2p-node.js'
export type { ConnectionMonitorSettings } from './limits/index.js'
export type { GossipDecision } from './gossip/index.js'
export { GossipValidator } from './gossip/index.js'
export { LONE_CHECKS_PER_TURN, RecordGate, peekRecordId, type GateResult } from './record-gate.js'
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
