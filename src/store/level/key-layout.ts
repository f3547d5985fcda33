import { RECORD_KINDS, type RecordKind } from '../../schema/index.js'
import type { IndexedMemory } from '../indexed-memory.js'
import { positionOf } from '../result-order.js'
import type { Link } from '../prepare.js'

/*
 * Key layout of the LevelDB index (.memory/index/). Each name below is a sublevel, whose keys
 * abstract-level prefixes with `!name!`. Parts are joined with NUL, which no part can contain: ids
 * are base32 CIDs, did:keys are base58, content types an enum, and record-v1 R3 forbids control
 * characters in tags. Within a prefix only the last part varies in length, so byte order is the
 * order the accessors and queries need.
 *
 *   records   <id>                                  → where the record's canonical bytes are in the
 *                                                     ledger (record-location.ts: a pack block, ~10
 *                                                     bytes), or the bytes themselves when no pack
 *                                                     holds them (a witness request)
 *   files     <number>                              → a ledger file's path relative to `.memory/`
 *                                                     (a stream shard, a pack file): what a
 *                                                     location's file number names
 *   memories  <id>                                  → IndexedMemory and TrustEntry in one value
 *                                                     (memory-entry.ts): a rescore reads and
 *                                                     writes one entry, not two
 *   links     <link> NUL <from> NUL <id>            → ''  (attestations/anchors/requests of a memory,
 *                                                          successors; `wit`, attestations by a
 *                                                          witness, is no longer written: prepare.ts)
 *   query     <scope> NUL <position>                → created_at as written (what a hit reports),
 *                                                     or '' when it is the ISO form of the
 *                                                     position's time (queryValueOf): the usual
 *                                                     case, 24 bytes less per key; a scan filters
 *                                                     time on the position and any other
 *                                                     predicate on the memories entry
 *   stats     k NUL <kind> | <scope>                → decimal count of records / of memories in scope
 *   orphans   <memory id>                           → ''  (attestations or anchors of it are stored,
 *                                                          the memory is not: they arrived first)
 *   meta      format                                → the layout's version (format.ts): an index
 *                                                     of another layout is refused, never misread
 *
 * A scope is `a` (all memories), `t NUL <tag>`, `u NUL <author did>` or `y NUL <content type>`, and a
 * position is `<10000 − score units, 5 digits> NUL <year-9999 ms − created ms, 15 digits> NUL <id>`
 * (order.ts): ascending keys are score desc, created_at desc, id asc, so a page with minTrust is one
 * range scan that starts at the top of its scope and stops at the first score below the bound.
 */

export const SEP = '\x00'
/** The character after SEP: `prefix + SEP` up to `prefix + END` spans exactly one prefix. */
export const END = '\x01'

export const SUBLEVELS = {
  records: 'records',
  files: 'files',
  memories: 'memories',
  links: 'links',
  query: 'query',
  stats: 'stats',
  orphans: 'orphans',
  meta: 'meta'
} as const

const LINK_CODES: Record<Link, string> = {
  attestations: 'att',
  anchors: 'anc',
  witness_requests: 'req',
  successors: 'sup'
}

export function linkPrefix (link: Link, from: string): string {
  return LINK_CODES[link] + SEP + from + SEP
}

export function linkKey (link: Link, from: string, id: string): string {
  return linkPrefix(link, from) + id
}

/** The range of every key of one link, whatever its `from`. */
export function linkRange (link: Link): { gte: string, lt: string } {
  return { gte: LINK_CODES[link] + SEP, lt: LINK_CODES[link] + END }
}

/** The `from` part of a key of `link`. */
export function linkFromOf (link: Link, key: string): string {
  const start = LINK_CODES[link].length + SEP.length
  return key.slice(start, key.indexOf(SEP, start))
}

export const ALL_SCOPE = 'a'

export function tagScope (tag: string): string {
  return 't' + SEP + tag
}

export function authorScope (author: string): string {
  return 'u' + SEP + author
}

export function typeScope (type: string): string {
  return 'y' + SEP + type
}

export function kindStatKey (kind: RecordKind): string {
  return KIND_STAT_KEYS[kind]
}

/** Built once: every record a write stores counts under its kind's key. */
const KIND_STAT_KEYS = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, 'k' + SEP + kind])) as Record<RecordKind, string>

/** Every scope a memory is listed in: one query-index entry (and one counter) each. */
export function scopesOf (memory: IndexedMemory): string[] {
  return [ALL_SCOPE, authorScope(memory.author), typeScope(memory.type), ...memory.tags.map(tagScope)]
}

export function queryKey (scope: string, position: string): string {
  return scope + SEP + position
}

/** All query-index keys of a memory at a given score (what a write plan puts, key by key). */
export function queryKeysOf (memory: IndexedMemory, units: number, id: string): string[] {
  const position = positionOf(units, memory.createdMillis, id)
  return scopesOf(memory).map((scope) => queryKey(scope, position))
}

/**
 * The value of a memory's query keys: '' when its created_at is what `toISOString` prints for its
 * time (milliseconds, `Z`), which a hit then rebuilds from the position (queryCreatedAt); else the
 * created_at as written (`…:22Z` without milliseconds, say). A value written before this rule (the
 * string always) is read as it is; the layout bump to 6 is for older builds, which would read '' as
 * the created_at (level/format.ts).
 */
export function queryValueOf (memory: IndexedMemory): string {
  return Number.isFinite(memory.createdMillis) && new Date(memory.createdMillis).toISOString() === memory.created_at ? '' : memory.created_at
}

/** What a query hit reports as created_at, from a query key's value and its position's time. */
export function queryCreatedAt (value: string, createdMillis: number): string {
  return value === '' ? new Date(createdMillis).toISOString() : value
}
