/**
 * Named values of the ledger audit, repair and archive (Memory Format
 * Spec V3.1 §3, §4, §10; docs/architecture.md). STYLE: every limit named, `@default` in the JSDoc.
 */

/** Domain tags of the derived ids (spec §7 typed ids), one per kind of line this module writes. */
export const AUDIT_FINDING_DOMAIN = 'isnad/audit-finding/v1'
export const SCORECARD_DOMAIN = 'isnad/scorecard/v1'
export const PLAN_DOMAIN = 'isnad/repair-plan/v1'
export const EXECUTION_DOMAIN = 'isnad/repair-execution/v1'

/** @default 'archive/quarantine' — where repair moves corrupt shards, at their relative path (never deleted). */
export const QUARANTINE_DIR = 'archive/quarantine'

/** @default 'archive/quarantine/lines' — where repair sets aside single bad lines of a shard, at the shard's relative path. */
export const SET_ASIDE_DIR = `${QUARANTINE_DIR}/lines`

/** @default '.restored' — the suffix a set-aside file takes once `isnad ledger restore` put its lines back. */
export const RESTORED_SUFFIX = '.restored'

/** The four view folders of spec §3, and which hold view objects (the rest: attachments). */
export const VIEW_FOLDERS = ['facts', 'decisions', 'commitments', 'attach'] as const

/**
 * The exact 10-byte gzip header (RFC 1952 §2.3) of every archive isnad writes: deflate, no flags,
 * MTIME 0, XFL 0, OS 255 ("unknown", so the bytes are the same on every platform). Nothing in gzip
 * checks these bytes (no FHCRC), so the audit compares them: a flipped header bit is then found too.
 */
export const ARCHIVE_GZIP_HEADER: Readonly<Uint8Array> = Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff)

/** Offset of the OS byte in the gzip header (RFC 1952 §2.3.1). */
export const GZIP_OS_OFFSET = 9

/**
 * Health score weights (the scorecard): score = 1 / (1 + errors + WARNING_WEIGHT × warnings),
 * rounded to 3 decimals. 1 for a clean ledger, 0.5 with one error, 0.8 with one warning; it falls
 * towards 0 as findings accumulate and never depends on the ledger's size.
 * @default 0.25
 */
export const WARNING_WEIGHT = 0.25

/** @default 32 — record verifications in flight at once (nodeCryptoVerifier runs them on libuv's thread pool). */
export const RECORD_CHECKS_IN_FLIGHT = 32

/** @default 86_400_000 — one UTC day, for shard ages (spec §4 daily shards). */
export const DAY_MS = 86_400_000

/** The record event types of the node's Merkle log (transparency-v1 R1): each is one RFC 6962 leaf. */
export const RECORD_EVENT_TYPES = [
  'memory.captured', 'memory.distilled', 'memory.attested', 'memory.anchored', 'memory.witness_requested'
] as const

/** The `memory.checkpointed` event type (spec §5): a signed Checkpoint of the node's log. */
export const CHECKPOINT_EVENT_TYPE = 'memory.checkpointed'

/** @default 64 — records sampled evenly over the ledger for the index check. */
export const INDEX_SAMPLE_SIZE = 64

/** @default 16 — the newest records, always in the index check's sample (a crash loses the newest first). */
export const INDEX_SAMPLE_RECENT = 16

/** @default 64 — record ids a finding names in `refs` (the anchors a damaged block concerns). */
export const MAX_FINDING_REFS = 64

/** The event that records a check of an anchor's evidence (anchors-v1 §6): the block check reads its last state per anchor. */
export const ANCHOR_CHECKED_EVENT_TYPE = 'memory.anchor_checked'
