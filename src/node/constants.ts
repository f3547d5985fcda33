/** @default 64 — how far `chain_depth` follows lineage.supersedes through known memories. */
export const MAX_LINEAGE_DEPTH = 64

/** Stored anchors before a verifier for their type runs: not counted by trust (DESIGN §2). */
export const UNCHECKED_ANCHOR_REASON = 'not checked: this node has no verifier for anchors yet'
