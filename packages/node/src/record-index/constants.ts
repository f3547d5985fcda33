/**
 * Named defaults and limits of the record store (STYLE: every limit named, `@default` in the JSDoc).
 */

/** @default 50 — items per query page when the caller gives no `limit`. */
export const DEFAULT_QUERY_LIMIT = 50

/** @default 1000 — the largest page a query may ask for; above it the query is refused with USAGE. */
export const MAX_QUERY_LIMIT = 1000

/**
 * @default 10000 — trust scores are indexed as integers in units of 1/10000, the 4 decimals a
 * TrustEntry score is rounded to, so that a fixed-width key orders exactly like the score.
 */
export const TRUST_SCALE = 10_000

/**
 * @default ".memory/index" — where the LevelDB indexes live inside a data directory (docs/architecture.md);
 * they can always be rebuilt from the JSONL ledgers.
 */
export const INDEX_DIRECTORY = '.memory/index'

/**
 * @default 256 — entries read per native round trip while a query scans an index beyond its first
 * page; the first read asks for exactly `limit + 1`, the common case of an unfiltered page.
 */
export const QUERY_SCAN_CHUNK = 256

/**
 * @default 500 — ids fetched per `getMany` when an accessor (attestationsFor, …) loads records, so a
 * memory with many attestations never needs one huge native call.
 */
export const GET_MANY_CHUNK = 500

/**
 * @default 33554432 (32 MiB) — LevelDB's write buffer (memtable) while an index is rebuilt in bulk
 * (LevelRecordStoreInit.bulk): eight times LevelDB's 4 MiB, so 100k records make a handful of
 * level-0 tables instead of dozens, and far less compaction competes with the rebuild for the CPU.
 */
export const BULK_WRITE_BUFFER_BYTES = 32 * 1024 * 1024

/**
 * @default 8192 — memory entries (indexed fields and trust) the LevelDB store keeps after writing
 * them, so rescoring a recently written memory needs no read before its write (IndexCache); about
 * 300 bytes each.
 */
export const MEMORY_ENTRY_CACHE_SIZE = 8192

/**
 * @default 65536 — `stats` counters (one per record kind, tag, author and content type) the LevelDB
 * store keeps in memory, so a write reads none of the counters it updates.
 */
export const COUNTER_CACHE_SIZE = 65_536
