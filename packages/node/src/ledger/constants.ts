import type { EventType, Visibility } from '../schema/index.js'

/**
 * Named defaults and limits of the `.memory/` ledger (Memory Format Spec V3.1 §2–§10).
 * STYLE: every limit named, `@default` in the JSDoc.
 */

/**
 * @default ['memory.published', 'memory.handoff', 'memory.witness_requested'] — the event types that
 * are addressed to other instances or peers and so go to the per-scope `bus/` (spec §4); every other
 * event stays in the writing instance's own `streams/` shard.
 */
export const BUS_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'memory.published', 'memory.handoff', 'memory.witness_requested'
])

/** @default 'private' — visibility of a stream event whose input names none. */
export const DEFAULT_STREAM_VISIBILITY: Visibility = 'private'

/** @default 'shared' — visibility of a bus event whose input names none: the bus exists to be read by others. */
export const DEFAULT_BUS_VISIBILITY: Visibility = 'shared'

/**
 * @default 1 MiB — the largest ledger line (JSON plus newline). An append above it is refused with
 * RECORD_TOO_LARGE; it also bounds how far back the torn-tail scan must look.
 */
export const MAX_LINE_BYTES = 1024 * 1024

/**
 * @default 4 MiB — the most bytes one group-commit write+fdatasync carries. Lines queued beyond it wait
 * for the next sync, so at most this much (plus one line) is ever unsynced in one file.
 */
export const MAX_FLUSH_BYTES = 4 * 1024 * 1024

/**
 * @default MAX_FLUSH_BYTES + MAX_LINE_BYTES — the longest invalid suffix of a shard that recovery
 * treats as a torn write and truncates. Only the bytes of the one write+sync in flight can be torn by
 * a crash, and that write is at most MAX_FLUSH_BYTES plus one line; a longer invalid suffix is
 * damage from elsewhere, refused with LEDGER_CORRUPT for `isnad ledger repair` to decide.
 */
export const MAX_TORN_TAIL_BYTES = MAX_FLUSH_BYTES + MAX_LINE_BYTES

/** @default 64 KiB — bytes read from the end of a file to check its last line (the common, healthy case). */
export const TAIL_PROBE_BYTES = 64 * 1024

/** @default 256 KiB — read size when streaming shards (and decompressed archive chunks). */
export const READ_CHUNK_BYTES = 256 * 1024

/**
 * @default 4 — day shards kept open per ledger. An idle older shard (nothing queued, no sync in
 * flight) is closed when a newer one opens; a busy one stays open until it drains.
 */
export const MAX_OPEN_SHARDS = 4

/** @default 16 — bytes of randomness (or of a hash) in a typed id: 128 bits, 26 base32 characters (spec §7). */
export const ID_BYTES = 16

/** Domain tags, so an id derived for one purpose can never collide with one derived for another. */
export const EVENT_ID_DOMAIN = 'isnad/event-id/v1'
export const FINDING_ID_DOMAIN = 'isnad/finding-id/v1'

/** @default 'coordination/writer.lock' — the single-writer lock of a data directory (docs/architecture.md, "The data directory"). */
export const WRITER_LOCK_FILE = 'coordination/writer.lock'

/** @default 'governance/findings/torn' — where torn tails are copied byte for byte before truncation. */
export const TORN_EVIDENCE_DIR = 'governance/findings/torn'

/** @default 0o644 — ledger files are meant to be read (and grepped) by the agents of this home (spec §11). */
export const LEDGER_FILE_MODE = 0o644

/**
 * @default 10_000 — idempotency keys of the current run kept in memory (with their events) so
 * duplicates, including ones still in flight, are answered without the index. Beyond it the oldest
 * durable keys are dropped and answered by the injected index, which `record` has told about them.
 */
export const RUN_KEY_CACHE = 10_000
