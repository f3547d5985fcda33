/*
 * Every limit and default of anchor creation and verification (protocols/anchors-v1.md). The
 * document is normative; these constants are its values.
 */

/**
 * @default 262144 — kubo's default chunker `size-262144` (boxo chunker.DefaultBlockSize): the bytes of
 * content in each leaf of a UnixFS file (anchors-v1 U2).
 */
export const UNIXFS_CHUNK_SIZE = 262_144
/**
 * @default 174 — kubo's `Import.UnixFSFileMaxLinks` default (boxo helpers.DefaultLinksPerBlock):
 * children of one node of the balanced layout (anchors-v1 U3).
 */
export const UNIXFS_MAX_CHILDREN = 174

/** Multicodec codes of the blocks a UnixFS file is made of (anchors-v1 U1). */
export const RAW_CODE = 0x55
export const DAG_PB_CODE = 0x70
/** Multihash code of sha2-256, the only hash a cid anchor's blocks may use (anchors-v1 U1). */
export const SHA2_256_CODE = 0x12

/**
 * @default 1048576 — the largest block accepted from a peer or read from the blockstore: kubo's
 * default chunk plus dag-pb framing is far below; bitswap refuses blocks above 1 MiB too (fetch-v1 B4).
 */
export const MAX_BLOCK_BYTES = 1024 * 1024
/**
 * @default 67108864 — LevelDB's memtable for the blockstore. Blocks are large (256 KiB) and written
 * in bursts of a whole file; with LevelDB's 4 MiB default a 100 MB import is flushed and compacted
 * many times over, which made it three times slower in the anchors benchmark (bench/anchors.ts).
 */
export const BLOCKSTORE_WRITE_BUFFER_BYTES = 64 * 1024 * 1024
/** @default 64 — block CIDs in one fetch request (fetch-v1 B1). */
export const MAX_FETCH_BLOCKS = 64
/** @default 131072 — blocks of one DAG a cid anchor check walks at most (32 GiB of 256 KiB leaves). */
export const MAX_DAG_BLOCKS = 131_072
/** @default 3 — peers asked for missing blocks of one DAG. */
export const MAX_BLOCK_PEERS = 3

/** @default 10485760 — bytes of a url or moltbook_post body read at most (anchors-v1 V3). */
export const MAX_URL_BYTES = 10 * 1024 * 1024
/** @default 10000 — one url check, all redirects included (anchors-v1 V3). */
export const URL_TIMEOUT_MS = 10_000
/** @default 5 — redirects followed at most (anchors-v1 V3). */
export const MAX_URL_REDIRECTS = 5

/** @default 15000 — one git command (anchors-v1 V2). */
export const GIT_TIMEOUT_MS = 15_000
/** @default 67108864 — bytes of one git blob read to compare a named path (anchors-v1 V2). */
export const MAX_GIT_BLOB_BYTES = 64 * 1024 * 1024

/**
 * @default 600000 — how long a verification state is reused before a read checks the anchor again
 * (anchors-v1 §5). `isnad anchor check` ignores it.
 */
export const ANCHOR_STATE_TTL_MS = 10 * 60 * 1000
/** @default 4 — anchors checked at the same time by `checkAll` (network and git are slow, not CPU). */
export const ANCHOR_CHECK_CONCURRENCY = 4
/** @default 1024 — characters of a state's reason (AnchorVerificationSchema). */
export const MAX_REASON_CHARS = 1024
