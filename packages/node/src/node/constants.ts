/** @default 64 — how far `chain_depth` follows lineage.supersedes through known memories. */
export const MAX_LINEAGE_DEPTH = 64

/** Anchors scored before their first check (a batch being ingested): not counted by trust (anchors-v1 §5). */
export const UNCHECKED_ANCHOR_REASON = 'not checked yet on this node'
