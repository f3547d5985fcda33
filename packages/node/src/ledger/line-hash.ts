import { hash } from 'node:crypto'
import canonicalize from 'canonicalize'
import { IsnadError } from '../errors/index.js'
import { sortedPlainCopy } from './canonical-copy.js'

/**
 * Line hashing of spec §8: every ledger line carries `hash` = `sha256:` + hex SHA-256 of the
 * RFC 8785 (JCS) canonical JSON of the line without its `hash` member. The stored line itself is
 * ordinary JSON (readable field order); readers re-canonicalise, so whitespace or member order in a
 * file never matters, only the values.
 */

export const HASH_PREFIX = 'sha256:'

/**
 * RFC 8785 canonical JSON; SCHEMA_INVALID for what JSON cannot carry (NaN, ±Infinity, BigInt, cycles,
 * lone surrogates). Plain data goes the cheaper route of canonical-copy.ts (the same text).
 */
export function canonicalJson (value: unknown): string {
  const copy = sortedPlainCopy(value)
  return copy === undefined ? genericCanonicalJson(value) : JSON.stringify(copy)
}

/** canonicalJson through the `canonicalize` library alone: for a value sortedPlainCopy declined. */
export function genericCanonicalJson (value: unknown): string {
  let text: string | undefined
  try {
    text = canonicalize(value)
  } catch (err) {
    throw new IsnadError('SCHEMA_INVALID', `not representable as canonical JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
  if (text === undefined) throw new IsnadError('SCHEMA_INVALID', 'not representable as canonical JSON')
  return text
}

/** Hex SHA-256 of the UTF-8 bytes of `text` (one-shot: no Hash object per line on the hot path). */
export function sha256Hex (text: string): string {
  return hash('sha256', text, 'hex')
}

/** The spec §8 hash of a ledger object; a `hash` member already present is left out. */
export function hashLine (obj: object): string {
  if (Object.hasOwn(obj, 'hash')) {
    const { hash: _ignored, ...rest } = obj as Record<string, unknown>
    return HASH_PREFIX + sha256Hex(canonicalJson(rest))
  }
  return HASH_PREFIX + sha256Hex(canonicalJson(obj))
}

/** `obj` with its `hash` member (set last, so it is the last field of the stored line). */
export function withLineHash<T extends object> (obj: T): T & { hash: string } {
  return { ...obj, hash: hashLine(obj) }
}

/**
 * True when `obj` is an object whose `hash` verifies (spec §8: a mismatch is a validation error).
 * False, never a throw, for anything else: a reader reports the line, it does not crash on it.
 */
export function verifyLineHash (obj: unknown): boolean {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return false
  const claimed = (obj as { hash?: unknown }).hash
  if (typeof claimed !== 'string') return false
  try {
    return hashLine(obj) === claimed
  } catch {
    return false
  }
}

const HASH_MEMBER = /,"hash":"(sha256:[0-9a-f]{64})"}$/
/**
 * A `\uD800`–`\uDFFF` escape: a `\u` whose backslash is not itself escaped (the run of backslashes
 * before the `u` is odd), so an escaped backslash followed by the letters `ud8…` is not one.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/

/**
 * The fast path of verifyLineHash for a line as the ledger writes it: the canonical JSON of the
 * payload with `"hash"` added as the last member. Then the hashed text is the line itself minus that
 * member, so no re-canonicalisation is needed — provided the line really is canonical, which is
 * checked cheaply: JSON.stringify reproduces it (same number and string forms as RFC 8785 §3.2.2)
 * and every object's members are in sorted order (§3.2.3). Returns false when unsure; the caller
 * then runs the full check, so a line verifies here exactly when verifyLineHash accepts it.
 */
export function verifyCanonicalLineText (text: string, parsed: unknown): boolean {
  const match = HASH_MEMBER.exec(text)
  if (match === null || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false
  const payloadText = text.slice(0, match.index) + '}'
  if (LONE_SURROGATE_ESCAPE.test(payloadText)) return false
  if (HASH_PREFIX + sha256Hex(payloadText) !== match[1]) return false
  const { hash: _hash, ...payload } = parsed as Record<string, unknown>
  return JSON.stringify(payload) === payloadText && hasSortedMembers(payload)
}

/** RFC 8785 §3.2.3: members sorted by their UTF-16 code units, at every depth. */
function hasSortedMembers (value: unknown): boolean {
  if (Array.isArray(value)) return value.every(hasSortedMembers)
  if (typeof value !== 'object' || value === null) return true
  const keys = Object.keys(value)
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) >= (keys[i] as string)) return false
  return keys.every((key) => hasSortedMembers((value as Record<string, unknown>)[key]))
}
