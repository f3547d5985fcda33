/**
 * `_meta/` of the Memory Format Spec V3.1 §3: four JSON files that tell any reader of a `.memory/`
 * directory which spec it follows, with which settings, and the exact shape of its lines.
 */

export const META_DIR = '_meta'

export const META_FILE_NAMES = ['spec.json', 'policy.json', 'event_schema.json', 'object_schema.json'] as const
export type MetaFileName = (typeof META_FILE_NAMES)[number]

/** `format` of policy.json; bumped when its shape changes. */
export const POLICY_FORMAT = 'isnad-policy/v1'

/** `format` of spec.json. */
export const SPEC_FILE_FORMAT = 'isnad-spec/v1'

/**
 * The scope used when a command names none.
 * @default 'default'
 */
export const DEFAULT_SCOPE = 'default'

/**
 * Shards older than this many days are compressed to `archive/`.
 * @default 30
 */
export const DEFAULT_ARCHIVE_AFTER_DAYS = 30

/**
 * Group-commit limits, mirrored from src/ledger/constants.ts (MAX_LINE_BYTES, MAX_FLUSH_BYTES) so
 * policy.json can state them; the node passes the ledger's values when it writes `_meta/`.
 * @default 1 MiB
 */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024
/** @default 4 MiB */
export const DEFAULT_MAX_FLUSH_BYTES = 4 * 1024 * 1024
