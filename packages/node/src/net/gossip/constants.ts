// A constants file imports only constants files, so loading gossip's limits (the CLI does, through
// gossip-health.ts) loads no code of wire/.
import { MAX_ENVELOPE_BYTES } from '../wire/constants.js'

/*
 * Topics, message limits and peer scoring of gossip (protocols/gossip-v1.md). The document is
 * normative; these constants are its values.
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
/** @default 4096 — checkpoint ids remembered to ignore replays after the seen cache forgets them. */
export const SEEN_CHECKPOINTS_SIZE = 4096
/** @default 4096 — DIDs whose shard a validator remembers (each a SHA-256 to compute, gossip-v1 R15). */
export const SHARDS_OF_DIDS_SIZE = 4096

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
