/**
 * Named limits of record-v1 (protocols/record-v1.md §4). Sizes are UTF-8 bytes unless said otherwise.
 * Every decoder that reads a record from a file, the network or HTTP checks these before anything else.
 */

/** @default 131072 — the whole signed record, DAG-CBOR encoded. */
export const MAX_RECORD_BYTES = 128 * 1024
/** @default 65536 */
export const MAX_BODY_BYTES = 64 * 1024
/** @default 512 */
export const MAX_SUMMARY_BYTES = 512
/** @default 32 */
export const MAX_TAGS = 32
/** @default 64 */
export const MAX_TAG_BYTES = 64
/** @default 4096 */
export const MAX_NOTES_BYTES = 4096
/** @default 32 */
export const MAX_CLAIMS = 32
/** @default 512 */
export const MAX_CLAIM_BYTES = 512
/** @default 1024 — trigger, session id, platform, handle. */
export const MAX_CONTEXT_FIELD_BYTES = 1024
/** @default 64 */
export const MAX_DERIVED_FROM = 64
/** @default 64 — addressed witnesses of one request. */
export const MAX_REQUEST_WITNESSES = 64
/** @default 2048 */
export const MAX_REFERENCE_BYTES = 2048
/** @default 256 */
export const MAX_HASH_BYTES = 256
/** @default 128 */
export const MAX_DID_BYTES = 128
/**
 * @default 4294967295 — the largest `draw.population` an attestation may claim (2³² − 1, a 4-byte
 * CBOR integer): more agents than any network this protocol carries, and small enough that
 * size / population stays far above 2⁻⁵³, the fraction's resolution.
 */
export const MAX_DRAW_POPULATION = 2 ** 32 - 1
/** @default 900000 — records dated more than 15 minutes after the verifier's clock are refused (record-v1 R16). */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000
/** @default 8 MiB — an export/import bundle file. */
export const MAX_BUNDLE_BYTES = 8 * 1024 * 1024
/** @default 4096 — records in one bundle. */
export const MAX_BUNDLE_RECORDS = 4096

/** @default 4096 — the largest `draw.shards` (record-v1 R19): the largest shard count (gossip-v1 §11). */
export const MAX_DRAW_SHARDS = 4096
