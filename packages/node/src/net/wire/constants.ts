import { MAX_RECORD_BYTES } from '../../schema/index.js'

/*
 * The size limits the wire messages and frames enforce (protocols/gossip-v1.md §4, fetch-v1.md,
 * sync-v1.md): the schemas in wire-messages.ts and the frame reader in frames.ts check them, so they
 * live with them rather than with the fetch and sync exchanges that send those messages.
 */

/**
 * @default 266240 — a witness-request envelope (gossip-v1 §4): two signed records of at most
 * MAX_RECORD_BYTES each plus the map header and both keys (4 KiB of slack).
 */
export const MAX_ENVELOPE_BYTES = 2 * MAX_RECORD_BYTES + 4096
/** @default 64 — CIDs in one fetch request (fetch-v1 L1). */
export const MAX_FETCH_IDS = 64
/** @default 1024 — records per sync page a server sends at most, whatever is asked (sync-v1 L1). */
export const MAX_SYNC_PAGE_SIZE = 1024
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
