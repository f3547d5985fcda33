import { MAX_RECORD_BYTES } from '../schema/index.js'

/*
 * Protocol ids, topics and every limit of the network layer (protocols/gossip-v1.md,
 * fetch-v1.md, sync-v1.md). The documents are normative; these constants are their values.
 */

/** gossip-v1 §2: one topic per kind of payload. */
export const TOPICS = {
  memories: 'isnad/v1/memories',
  witnessRequests: 'isnad/v1/witness-requests',
  attestations: 'isnad/v1/attestations',
  anchors: 'isnad/v1/anchors',
  checkpoints: 'isnad/v1/checkpoints',
  /** gossip-v1 §9: one identity's whole key log per message (record-v1 §13). */
  keyEvents: 'isnad/v1/key-events'
} as const

export type Topic = (typeof TOPICS)[keyof typeof TOPICS]
export const ALL_TOPICS: readonly Topic[] = Object.values(TOPICS)

/** fetch-v1 §1. */
export const FETCH_PROTOCOL = '/isnad/fetch/1.0.0'
/** sync-v1 §1. */
export const SYNC_PROTOCOL = '/isnad/sync/1.0.0'

/** Default listen addresses: loopback only, an ephemeral TCP port and an ephemeral WebSocket port. */
export const DEFAULT_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const

/**
 * @default 266240 — a witness-request envelope (gossip-v1 §4): two signed records of at most
 * MAX_RECORD_BYTES each plus the map header and both keys (4 KiB of slack).
 */
export const MAX_ENVELOPE_BYTES = 2 * MAX_RECORD_BYTES + 4096
/** @default 4096 — a signed checkpoint is about 300 bytes (gossip-v1 §5). */
export const MAX_CHECKPOINT_BYTES = 4096
/**
 * @default 266240 — the largest `data` any topic accepts (the envelope; a key log's limit is the
 * same). A message over its topic's limit is Rejected by the validator (gossip-v1 R1, R8, R11, R13).
 */
export const MAX_GOSSIP_DATA_BYTES = MAX_ENVELOPE_BYTES
/**
 * @default 536576 — one gossipsub RPC frame as read from a peer's stream (gossipsub's
 * `maxInboundDataLength`, gossip-v1 G1). It must exceed the largest data plus the RPC's protobuf
 * framing (~40 bytes), or a message at the limit would never reach the validator to be judged; it
 * holds two messages of the largest size (an IWANT answer carries several) with 4 KiB to spare. A
 * longer frame is refused as soon as its length prefix is read, the peer is penalised and
 * disconnected (gossip-v1 G3).
 */
export const MAX_GOSSIP_FRAME_BYTES = 2 * MAX_GOSSIP_DATA_BYTES + 4096
/**
 * @default 3600000 — a checkpoint older than this is stale and ignored on gossip (gossip-v1 R12):
 * checkpoints are re-announced; an old one is still valid evidence but not news.
 */
export const MAX_CHECKPOINT_AGE_MS = 60 * 60 * 1000
/** @default 120000 — gossipsub's seen-cache TTL: a replay within it is dropped by message id. */
export const SEEN_TTL_MS = 2 * 60 * 1000
/**
 * @default 16384 — gossip-v1 §3: a node sends IDONTWANT for a message only from this size on. Below
 * it the IDONTWANT costs each mesh peer a whole RPC (framing, encryption, a flow-control frame back)
 * and saves at most one duplicate of a few hundred bytes, which usually is already under way.
 */
export const IDONTWANT_MIN_DATA_BYTES = 16 * 1024

/** @default 64 — CIDs in one fetch request (fetch-v1 L1). */
export const MAX_FETCH_IDS = 64
/** @default 4096 — the request frame: 64 CIDs of 59 characters plus CBOR framing (fetch-v1 L2). */
export const MAX_FETCH_REQUEST_BYTES = 4096
/** @default 131072 — every response frame carries one signed record (fetch-v1 L3, sync-v1 L4). */
export const MAX_RECORD_FRAME_BYTES = MAX_RECORD_BYTES
/**
 * @default 65507 — bytes of frames handed to a stream in one `send` (frames.ts sendFrames): with
 * yamux's 12-byte frame header, one Noise transport message (at most 65,519 bytes of plaintext
 * before its 16-byte tag). Each send costs a yamux data frame, an encryption and a socket write on
 * this side and a decryption and a window update on the other: a sync page of 256 records sent
 * frame by frame cost 257 of each, packed it costs about 3.
 */
export const SEND_CHUNK_BYTES = 65_519 - 12
/** @default 10000 — a whole fetch exchange, dial included (fetch-v1 L4). */
export const FETCH_TIMEOUT_MS = 10_000
/** @default 3 — peers asked for a memory an attestation or anchor points at (gossip-v1 R10). */
export const MAX_FETCH_PEERS = 3

/** @default 256 — records per sync page asked by this node (sync-v1 L1). */
export const SYNC_PAGE_SIZE = 256
/**
 * @default 64 — records asked in the first page of a sync run; each next page asks twice as many, up
 * to the page size (sync-v1 §4). Nothing is stored before the first page is verified, so a small
 * first page starts the store sooner, and a catch-up of 3,000 records spent ~40 ms of its ~520 ms
 * waiting for a first page of 256 to be checked.
 */
export const SYNC_FIRST_PAGE_SIZE = 64
/** @default 1024 — records per sync page a server sends at most, whatever is asked (sync-v1 L1). */
export const MAX_SYNC_PAGE_SIZE = 1024
/** @default 256 — the request and the header frames (sync-v1 L2, L3). */
export const MAX_SYNC_CONTROL_BYTES = 256
/** @default 30000 — one sync page, dial included (sync-v1 L5). */
export const SYNC_PAGE_TIMEOUT_MS = 30_000
/** @default 10000 — pages in one sync run with one peer; the next run continues from the cursor. */
export const MAX_SYNC_PAGES = 10_000
/**
 * @default 2 — pages of one sync run asked for ahead: requested or received (and being verified)
 * while an earlier page is stored (sync-v1 §4). One request is in flight at a time.
 */
export const SYNC_PAGES_AHEAD = 2

/** @default 4 — concurrent inbound fetch streams per connection. */
export const MAX_INBOUND_FETCH_STREAMS = 4
/** @default 2 — concurrent inbound sync streams per connection. */
export const MAX_INBOUND_SYNC_STREAMS = 2

/** @default 64 — signatures of one fetched or synced batch checked at the same time. */
export const VERIFY_CONCURRENCY = 64
/** @default 4096 — recently verified records kept so no path verifies one twice. */
export const VERIFIED_CACHE_SIZE = 4096
/** @default 4096 — checkpoint ids remembered to ignore replays after the seen cache forgets them. */
export const SEEN_CHECKPOINTS_SIZE = 4096

/** @default 100 — connections libp2p keeps open at most. */
export const MAX_CONNECTIONS = 100
/** @default 16 — mDNS-discovered peers are dialled while fewer than this are connected. */
export const DISCOVERY_DIAL_BELOW = 16

/*
 * Peer scoring (gossip-v1 §6). Scores are gossipsub v1.1 scores; the application part (P5) is the
 * sum of the penalties below, decayed. Thresholds, from mild to severe:
 */
/** @default -10 — below: no gossip (IHAVE/IWANT) is exchanged with the peer. One invalid message suffices. */
export const GOSSIP_THRESHOLD = -10
/** @default -50 — below: this node's own publications are not sent to the peer. */
export const PUBLISH_THRESHOLD = -50
/** @default -80 — below: every RPC from the peer is ignored (graylist). Two invalid messages suffice. */
export const GRAYLIST_THRESHOLD = -80
/** @default 100 — peer exchange is accepted only from peers above this (effectively: never by default). */
export const ACCEPT_PX_THRESHOLD = 100
/** @default 2 — median mesh score below which gossipsub grafts better peers opportunistically. */
export const OPPORTUNISTIC_GRAFT_THRESHOLD = 2
/** @default -20 — weight of P4 (invalid messages, squared): 1 → -20, 2 → -80, 3 → -180. */
export const INVALID_MESSAGE_WEIGHT = -20
/** @default 0.99 — P4 counter decay per second: a half-life of about 69 s. */
export const INVALID_MESSAGE_DECAY = 0.99
/** @default 50 — application penalty for a fetch or sync protocol violation (oversized frame, garbage, invalid record). */
export const STREAM_VIOLATION_PENALTY = 50
/** @default 90 — a peer whose application penalties reach this is disconnected: two violations within about 7 minutes. */
export const DISCONNECT_PENALTY = 90
/** @default 600000 — half-life of application penalties. */
export const PENALTY_HALF_LIFE_MS = 10 * 60 * 1000
