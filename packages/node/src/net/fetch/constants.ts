/* The protocol id and limits of fetch (protocols/fetch-v1.md); the document is normative. */

/** fetch-v1 §1. */
export const FETCH_PROTOCOL = '/isnad/fetch/1.0.0'
/** @default 4096 — the request frame: 64 CIDs of 59 characters plus CBOR framing (fetch-v1 L2). */
export const MAX_FETCH_REQUEST_BYTES = 4096
/** @default 10000 — a whole fetch exchange, dial included (fetch-v1 L4). */
export const FETCH_TIMEOUT_MS = 10_000
/** @default 3 — peers asked for a memory an attestation or anchor points at (gossip-v1 R10). */
export const MAX_FETCH_PEERS = 3
/** @default 4 — concurrent inbound fetch streams per connection. */
export const MAX_INBOUND_FETCH_STREAMS = 4
/** fetch-v1 §9: the minor version that adds a memory's evidence; it serves record and block requests too. */
export const FETCH_EVIDENCE_PROTOCOL = '/isnad/fetch/1.2.0'
/**
 * @default 256 — records one evidence response carries (fetch-v1 E2): a memory's attestations,
 * anchors and witness requests, about 5 drawn answers and a request or two on today's network.
 */
export const MAX_EVIDENCE_RECORDS = 256
