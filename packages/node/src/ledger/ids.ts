import { hash } from 'node:crypto'
import { base32 } from 'multiformats/bases/base32'
import { ID_PREFIXES, type IdKind, type ViewObjectType } from '../schema/index.js'
import { EVENT_ID_DOMAIN, ID_BYTES } from './constants.js'
import { VIEW_REDUCER } from './object-views/constants.js'

/*
 * The one home of typed ids (spec §7): `<prefix>_<26 lower-case base32 characters>`, 128 bits, for
 * the ledger (runs, instances, leases, events, findings) and for the view objects (facts, decisions,
 * commitments, attachments, reductions). Random ids take their randomness from the caller; derived
 * ids are SHA-256 of a domain tag and a list of parts, each prefixed with its UTF-8 length, so no two
 * different lists of parts (`['a:b']` vs `['a', 'b']`) share an id, and the same logical event or
 * the same memory reduced twice always has the same id (spec §8, §9).
 * test/unit/ledger/typed-id-vectors.json holds ids written by the earlier hand-written encoders.
 */

/** n bytes of randomness, injected (crypto.randomBytes in production, a seeded source in tests). */
export type RandomBytes = (n: number) => Uint8Array

/** RFC 4648 §6 base32, lower-case, without padding: multiformats' base32 without its multibase `b`. */
export function encodeBase32 (bytes: Uint8Array): string {
  return base32.baseEncode(bytes)
}

/** `<prefix>_<base32 of the first ID_BYTES bytes>`. */
function typedIdOf (prefix: string, bytes: Uint8Array): string {
  return `${prefix}_${base32.baseEncode(bytes.length === ID_BYTES ? bytes : bytes.subarray(0, ID_BYTES))}`
}

export function randomId (kind: IdKind, random: RandomBytes): string {
  const bytes = random(ID_BYTES)
  if (bytes.length < ID_BYTES) throw new RangeError(`random(${ID_BYTES}) returned ${bytes.length} bytes`)
  return typedIdOf(ID_PREFIXES[kind], bytes)
}

/** `<UTF-8 length>:<part>`: Buffer counts a lone surrogate as UTF-8 writes it (U+FFFD, 3 bytes). */
function lengthPrefixed (part: string): string {
  return `${Buffer.byteLength(part, 'utf8')}:${part}`
}

/**
 * The first ID_BYTES bytes of SHA-256 of the text as UTF-8, in one native call. The digest comes as
 * a latin1 ('binary') string, one character per byte: a Buffer result costs about as much again as
 * the hash (an id is derived for every event written).
 */
function sha256 (text: string): Uint8Array {
  const digest = hash('sha256', text, 'binary')
  const bytes = new Uint8Array(ID_BYTES)
  for (let i = 0; i < ID_BYTES; i++) bytes[i] = digest.charCodeAt(i)
  return bytes
}

/**
 * A ledger id that is a function of `parts`: SHA-256 of `<domain>\0` then `<length>:<part>\0` per
 * part (each element ends with NUL).
 */
export function derivedId (kind: IdKind, domain: string, parts: readonly string[]): string {
  let text = `${domain}\0`
  for (const part of parts) text += `${lengthPrefixed(part)}\0`
  return typedIdOf(ID_PREFIXES[kind], sha256(text))
}

/**
 * The event id of the logical event (scope, idempotency_key) (spec §8). The scope is part of it
 * because idempotency is per scope ledger: the same key in two scopes names two events.
 */
export function eventIdFor (scope: string, idempotencyKey: string): string {
  return derivedId('event', EVENT_ID_DOMAIN, [scope, idempotencyKey])
}

const VIEW_ID_DOMAIN = `${VIEW_REDUCER}/id`

/**
 * A view object's id: SHA-256 of `<domain>` then `\0<length>:<part>` per part (NUL before each
 * part, the layout the views were first written with). Never random: reducing the same memory twice
 * names the same object, which makes re-reduction idempotent (spec §9).
 */
export function deriveTypedId (prefix: string, parts: readonly string[]): string {
  let text = VIEW_ID_DOMAIN
  for (const part of parts) text += `\0${lengthPrefixed(part)}`
  return typedIdOf(prefix, sha256(text))
}

/** The object id of the memory `memoryCid` read as a `type` (fac_/dec_/com_). */
export function objectIdOf (type: ViewObjectType, memoryCid: string): string {
  return deriveTypedId(ID_PREFIXES[type], ['object', type, memoryCid])
}

/** The attachment id of a memory's object: one per object, newer lines replace older ones. */
export function attachmentIdOf (objectId: string): string {
  return deriveTypedId(ID_PREFIXES.attachment, ['attachment', objectId])
}

/**
 * A reduction id: one per state of an object, chained to the previous reduction of that object, so
 * the same state reached twice (v1 → v2 → v1) still gets a new, unique, reproducible id.
 */
export function reductionIdOf (objectId: string, objectHash: string, attachmentHash: string | undefined, previous: string | undefined): string {
  return deriveTypedId(ID_PREFIXES.reduction, ['reduction', objectId, objectHash, attachmentHash ?? '', previous ?? ''])
}

/** The schema's typedId pattern (schema/ledger-lines.ts), one per kind: buildEvent checks every causal ref. */
const TYPED_ID_PATTERNS: Readonly<Record<IdKind, RegExp>> = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_[a-z2-7]{26}$`)])
) as Record<IdKind, RegExp>

export function isTypedId (kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && TYPED_ID_PATTERNS[kind].test(value)
}
