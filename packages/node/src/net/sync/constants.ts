/* The protocol id and limits of sync (protocols/sync-v1.md); the document is normative. */

/** sync-v1 §1. */
export const SYNC_PROTOCOL = '/isnad/sync/1.0.0'
/**
 * @default 1024 — records per sync page asked by this node (sync-v1 L1): the most a server sends
 * (MAX_SYNC_PAGE_SIZE). Each page costs both nodes a stream and its protocol negotiation, and the
 * receiver a batch: a ledger append and its pack file, an index write, a Merkle append and a
 * reputation table. Measured on 2 vCPUs (BENCHMARKS.md, figure 8c): with one page ahead
 * (SYNC_PAGES_AHEAD) a catch-up of 3,000 records cost ~10 % less CPU per record on both nodes in
 * pages of 1,024 than in pages of 256 with two ahead. SYNC_PAGE_BYTES keeps a page of large
 * records small.
 */
export const SYNC_PAGE_SIZE = 1024
/**
 * @default 4 MiB — bytes of records a page is asked for at most, from the mean size of the records
 * of the page before it (sync-v1 §4): with records of 1 KiB a page holds SYNC_PAGE_SIZE of them,
 * with records of MAX_RECORD_BYTES 32. So the pages a run holds (SYNC_PAGES_AHEAD, and the one
 * being stored) stay near 8 MiB while record sizes are steady.
 */
export const SYNC_PAGE_BYTES = 4 * 1024 * 1024
/**
 * @default 64 — records asked in the first page of a sync run; each next page asks twice as many, up
 * to the page size (sync-v1 §4). Nothing is stored before the first page is verified, so a small
 * first page starts the store sooner, and a catch-up of 3,000 records spent ~40 ms of its ~520 ms
 * waiting for a first page of 256 to be checked.
 */
export const SYNC_FIRST_PAGE_SIZE = 64
/** @default 256 — the request and the header frames (sync-v1 L2, L3). */
export const MAX_SYNC_CONTROL_BYTES = 256
/** @default 30000 — one sync page, dial included (sync-v1 L5). */
export const SYNC_PAGE_TIMEOUT_MS = 30_000
/** @default 10000 — pages in one sync run with one peer; the next run continues from the cursor. */
export const MAX_SYNC_PAGES = 10_000
/**
 * @default 1 — pages of one sync run asked for ahead: requested or received (and being verified)
 * while an earlier page is stored (sync-v1 §4). One request is in flight at a time. One page of
 * 1,024 ahead keeps the serving peer, verification and the store busy at once; a second one only
 * kept 1,024 more records alive, which V8 then promoted and marked (V8's threads ~+20 µs per record).
 */
export const SYNC_PAGES_AHEAD = 1
/** @default 2 — concurrent inbound sync streams per connection. */
export const MAX_INBOUND_SYNC_STREAMS = 2
/** sync-v1 §9: sync by interest, beside SYNC_PROTOCOL (which stays served for older nodes). */
export const SYNC_INTEREST_PROTOCOL = '/isnad/sync/2.0.0'
/**
 * @default 163840 — a sync-by-interest request frame (sync-v1 L6): room for MAX_INTEREST_NAMES
 * authors (~58 bytes each) and as many tags (at most 66 bytes each), with the shards.
 */
export const MAX_SYNC_INTEREST_REQUEST_BYTES = 160 * 1024
/**
 * @default 4096 — log entries a server reads for one sync-by-interest request (sync-v1 L7): it
 * answers with what matched among them and the cursor after them, so a request for little of a
 * long log costs a bounded scan, and the client asks again from there.
 */
export const MAX_SYNC_SCAN = 4096
