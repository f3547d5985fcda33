/* The protocol id and limits of content routing (protocols/content-routing-v1.md); the document is normative. */

/** content-routing-v1 C1: the Kademlia DHT of isnad nodes, apart from the public IPFS one (`/ipfs/kad/1.0.0`). */
export const DHT_PROTOCOL = '/isnad/kad/1.0.0'
/** @default 20 — Kademlia's k: peers per bucket, and peers a provider record is stored at (C3). */
export const DHT_K = 20
/** @default 10000 — a whole lookup of providers by CID (C5). */
export const FIND_PROVIDERS_TIMEOUT_MS = 10_000
/** @default 3 — providers a node asks, one after another, for a record found by CID (C6). */
export const MAX_PROVIDERS_ASKED = 3
/** @default 4 — provide operations (each a lookup and k stores) run at once for newly stored records (C2). */
export const PROVIDE_CONCURRENCY = 4
/** @default 16384 — newly stored CIDs waiting to be provided; past it the oldest waiting are dropped (C2). */
export const MAX_PROVIDE_QUEUE = 16_384
/** @default 60000 — one provide operation; a node with no DHT peer yet gives up rather than hold the queue (C2). */
export const PROVIDE_TIMEOUT_MS = 60_000
