/** SHA-256 output length: every leaf, node and root hash of the log (RFC 6962 §2.1). */
export const HASH_BYTES = 32

/** RFC 6962 §2.1: a leaf hash is SHA-256(0x00 ‖ data) … */
export const LEAF_PREFIX = 0x00
/** … and an interior node hash SHA-256(0x01 ‖ left ‖ right): second-preimage resistance between the two. */
export const NODE_PREFIX = 0x01

/**
 * @default 2^53 − 1 — tree sizes and leaf indexes are JavaScript safe integers; the tree arithmetic
 * (tree-math.ts) uses division, not 32-bit bit operators, so it is exact up to here.
 */
export const MAX_TREE_SIZE = Number.MAX_SAFE_INTEGER

/**
 * @default 64 — hashes in one proof path read from JSON. An inclusion path has at most
 * ⌈log2 n⌉ ≤ 53 hashes and a consistency path at most ⌈log2 n⌉ + 1 ≤ 54 (RFC 9162 §2.1.3, §2.1.4),
 * so a longer path can only be garbage and is refused before anything is decoded.
 */
export const MAX_PROOF_HASHES = 64

/** Domain tag of a checkpoint's signing input (transparency-v1 §5.2), like record-v1 §3.1's tags. */
export const CHECKPOINT_DOMAIN_TAG = 'isnad/checkpoint/v1\0'

/**
 * @default 4 — MerkleLog keeps in memory the hashes of the perfect subtrees of at least 2^4 leaves
 * it reads or writes. They are immutable once written, and every proof passes through the upper
 * levels, so a proof then reads about four stored hashes instead of log2 n.
 */
export const NODE_CACHE_MIN_LEVEL = 4

/**
 * @default 65536 — entries of that cache (≈ 6 MiB): every cached level of a log of a million leaves.
 * Past the bound the cache is cleared, not evicted: it refills with what proofs read.
 */
export const NODE_CACHE_SIZE = 65_536
