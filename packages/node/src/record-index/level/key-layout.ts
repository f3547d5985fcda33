import { IsnadError } from '../../errors/index.js'
import { RECORD_KINDS, type RecordKind } from '../../schema/index.js'
import { TRUST_SCALE } from '../constants.js'
import type { IndexedMemory } from '../indexed-memory.js'
import { MAX_MILLIS, createdOfPosition, idOfPosition, positionOf, unitsOfPosition } from '../result-order.js'
import type { Link } from '../prepare.js'
import { ID_BYTES, idKey, idKeyOf, idOfKey, prefixEnd, uintKey, uintOfKey, utf8Key } from './binary-keys.js'

/*
 * Key layout of the LevelDB index (.memory/index/records) since layout 7. Each name below is a
 * sublevel, whose keys abstract-level prefixes with `!name!` (one letter: the prefix is in every
 * key). Keys are binary strings (binary-keys.ts): a record id is 32 bytes (`<id>` below: its
 * digest, packed so that keys sort as the ids do), text is UTF-8, numbers are big-endian. Parts
 * are joined with NUL only where a part varies in length (a scope in `stats` and `d`: no tag,
 * did:key or content type holds NUL, record-v1 R3); elsewhere every part after the first has a
 * fixed width, so byte order is the order the accessors and queries need.
 *
 *   r  records   <id>                              → where the record's canonical bytes are in the
 *                                                   ledger (record-location.ts: a pack block, ~7
 *                                                   bytes), or the bytes themselves when no pack
 *                                                   holds them (a witness request)
 *   f  files     <number, decimal>                 → a ledger file's path relative to `.memory/`
 *                                                   (a stream shard, a pack file): what a
 *                                                   location's file number names
 *   m  memories  <id>                              → IndexedMemory and TrustEntry in one value
 *                                                   (memory-entry.ts): a rescore reads and
 *                                                   writes one entry, not two
 *   l  links     <link code> <from id, first 8 bytes> <id>
 *                                                 → ''  (attestations/anchors/requests of a memory,
 *                                                         successors; no `wit`, attestations by a
 *                                                         witness: prepare.ts). The `from` part is
 *                                                         cut to 8 bytes: the store reads the
 *                                                         records it finds anyway and keeps those
 *                                                         whose memory is `from`, so two memories
 *                                                         that share it (by chance after ~2^32
 *                                                         memories) only cost a record read
 *   q  query     <scope number> <position>         → created_at as written (what a hit reports),
 *                                                   or '' when it is the ISO form of the
 *                                                   position's time (queryValueOf): the usual
 *                                                   case; a scan filters time on the position
 *                                                   and any other predicate on the memories entry
 *   s  stats     k NUL <kind> | <scope>            → decimal count of records / of memories in scope
 *   o  orphans   <memory id>                       → ''  (attestations or anchors of it are stored,
 *                                                         the memory is not: they arrived first)
 *   d  scopes    <number, decimal>                 → a scope, spelled out once (scope-names.ts):
 *                                                   query keys and memory entries name it by
 *                                                   its number, `a` is 0 and has no entry
 *   meta         format                            → the layout's version (format.ts), as text under
 *                                                   the name every layout used: an index of
 *                                                   another layout is refused, never misread
 *
 * A scope is `a` (all memories), `t NUL <tag>`, `u NUL <author did>` or `y NUL <content type>`; in a
 * query key its number is an unsigned LEB128 varint, which no other number's varint starts with,
 * so the keys of one scope are exactly those with its varint as prefix. A position is 41 bytes: 10000 − score units (2 bytes), year-9999 ms − created ms (7 bytes), the id
 * (32): ascending keys are score desc, created_at desc, id asc (result-order.ts, whose text
 * position a cursor carries), so a page with minTrust is one range scan that starts at the top of
 * its scope and stops at the first score below the bound.
 */

export const SEP = '\x00'
/** The character after SEP: `prefix + SEP` up to `prefix + END` spans exactly one prefix. */
export const END = '\x01'

export const SUBLEVELS = {
  records: 'r',
  files: 'f',
  memories: 'm',
  links: 'l',
  query: 'q',
  stats: 's',
  orphans: 'o',
  scopes: 'd',
  meta: 'meta'
} as const

const LINK_CODES: Record<Link, string> = {
  attestations: 'a',
  anchors: 'n',
  witness_requests: 'r',
  successors: 's'
}

/** @default 8 — the bytes of the `from` id a link key keeps (see `links` above). */
export const LINK_FROM_BYTES = 8

/** The keys of one link from one record, of every record whose key starts as `fromKey` (idKey) does. */
export function linkPrefix (link: Link, fromKey: string): string {
  return LINK_CODES[link] + fromKey.slice(0, LINK_FROM_BYTES)
}

export function linkKey (link: Link, from: string, id: string): string {
  return linkPrefix(link, idKey(from)) + idKey(id)
}

/** The range of every key of one link, whatever its `from`. */
export function linkRange (link: Link): { gte: string, lt: string } {
  return { gte: LINK_CODES[link], lt: prefixEnd(LINK_CODES[link]) }
}

/** The `from` part of a key of `link`: the first LINK_FROM_BYTES of the from id's key. */
export function linkFromOf (link: Link, key: string): string {
  const at = LINK_CODES[link].length
  return key.slice(at, at + LINK_FROM_BYTES)
}

/** The linked record id of a key of `link`: its last ID_BYTES. */
export function linkedIdOf (key: string): string {
  return idOfKey(key, key.length - ID_BYTES)
}

export const ALL_SCOPE = 'a'

export function tagScope (tag: string): string {
  return 't' + SEP + utf8Key(tag)
}

export function authorScope (author: string): string {
  return 'u' + SEP + utf8Key(author)
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

/** The first part of every query key of a scope: its number as an unsigned LEB128 varint. */
export function scopeKey (scopeNumber: number): string {
  let out = ''
  let rest = scopeNumber
  while (rest >= 0x80) {
    out += String.fromCharCode((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  return out + String.fromCharCode(rest)
}

export function queryKey (scopeNumber: number, position: string): string {
  return scopeKey(scopeNumber) + position
}

/** All query-index keys of a memory at a given score, its scopes numbered by `numberOf` (scopesOf's order). */
export function queryKeysOf (memory: IndexedMemory, units: number, id: string, numberOf: (scope: string) => number): string[] {
  const position = positionKey(units, memory.createdMillis, idKey(id))
  return scopesOf(memory).map((scope) => queryKey(numberOf(scope), position))
}

const SCORE_BYTES = 2
/** Enough for MAX_MILLIS − the earliest record-v1 instant (year 0000): 3.2e14 < 2^56. */
const CREATED_BYTES = 7
/** The fixed width of a position: what follows `<scope> NUL` in a query key. */
export const POSITION_BYTES = SCORE_BYTES + CREATED_BYTES + ID_BYTES

/** A memory's position in the query order as key bytes (the order of result-order.ts positionOf). */
export function positionKey (units: number, createdMillis: number, idKey: string): string {
  return uintKey(TRUST_SCALE - units, SCORE_BYTES) + uintKey(MAX_MILLIS - createdMillis, CREATED_BYTES) + idKey
}

/** The position key of a text position (a cursor's); USAGE when its id is no record id. */
export function positionKeyOf (position: string): string {
  const key = idKeyOf(idOfPosition(position))
  if (key === undefined) throw new IsnadError('USAGE', 'the query cursor is not one this store returned', { details: { position } })
  return positionKey(unitsOfPosition(position), createdOfPosition(position), key)
}

/** Score units of the position key at `at`. */
export function unitsOfPositionKey (key: string, at: number): number {
  return TRUST_SCALE - uintOfKey(key, at, SCORE_BYTES)
}

/** Creation instant (epoch ms) of the position key at `at`. */
export function createdOfPositionKey (key: string, at: number): number {
  return MAX_MILLIS - uintOfKey(key, at + SCORE_BYTES, CREATED_BYTES)
}

/** The record id of the position key at `at`. */
export function idOfPositionKey (key: string, at: number): string {
  return idOfKey(key, at + SCORE_BYTES + CREATED_BYTES)
}

/** The text position (result-order.ts) of the position key at `at`: what a cursor carries. */
export function textPositionOf (key: string, at: number): string {
  return positionOf(unitsOfPositionKey(key, at), createdOfPositionKey(key, at), idOfPositionKey(key, at))
}

/** The position key that sorts after every position with at least `units` (units ≤ TRUST_SCALE). */
export function positionKeyBoundBelow (units: number): string {
  return uintKey(TRUST_SCALE - units + 1, SCORE_BYTES)
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
