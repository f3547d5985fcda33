/*
 * Protocol ids, topics and every limit of the network layer (protocols/gossip-v1.md,
 * fetch-v1.md, sync-v1.md, content-routing-v1.md). The documents are normative; these constants are
 * their values. Each part keeps its own in its constants.ts (gossip/, wire/, fetch/, sync/, limits/,
 * content-routing/); this file holds
 * what the parts share and re-exports theirs, so the whole list is read from one place.
 */

export * from './gossip/constants.js'
export * from './wire/constants.js'
export * from './fetch/constants.js'
export * from './sync/constants.js'
export * from './limits/constants.js'
export * from './content-routing/constants.js'

/** Default listen addresses: loopback only, an ephemeral TCP port and an ephemeral WebSocket port. */
export const DEFAULT_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const

/** @default 64 — signatures of one fetched or synced batch checked at the same time. */
export const RECEIVED_VERIFY_CONCURRENCY = 64
/** @default 4096 — recently verified records kept so no path verifies one twice. */
export const VERIFIED_CACHE_SIZE = 4096

/** @default 16 — mDNS-discovered peers are dialled while fewer than this are connected. */
export const DISCOVERY_DIAL_BELOW = 16
