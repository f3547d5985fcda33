import { hash } from 'node:crypto'
import { ID_PREFIXES, type IdKind } from '../schema/ledger.js'
import { EVENT_ID_DOMAIN, ID_BYTES } from './constants.js'

/**
 * Typed ids of spec §7: `<prefix>_<26 lower-case base32 characters>`, 128 bits. Random ids (runs,
 * instances, leases) take their randomness from the caller; event ids are derived from the scope and
 * idempotency key, so the same logical event always has the same id (spec §8).
 */

/** n bytes of randomness, injected (crypto.randomBytes in production, a seeded source in tests). */
export type RandomBytes = (n: number) => Uint8Array

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

/** RFC 4648 §6 base32, lower-case, without padding. */
export function encodeBase32 (bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31] as string
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31] as string
  return out
}

function idFrom (kind: IdKind, bytes: Uint8Array): string {
  return `${ID_PREFIXES[kind]}_${encodeBase32(bytes.subarray(0, ID_BYTES))}`
}

export function randomId (kind: IdKind, random: RandomBytes): string {
  const bytes = random(ID_BYTES)
  if (bytes.length < ID_BYTES) throw new RangeError(`random(${ID_BYTES}) returned ${bytes.length} bytes`)
  return idFrom(kind, bytes)
}

/**
 * An id that is a function of `parts`: SHA-256 of the domain tag and the parts, each prefixed with
 * its UTF-8 length, so no two different lists of parts (`['a:b']` vs `['a', 'b']`) share an id.
 */
export function derivedId (kind: IdKind, domain: string, parts: readonly string[]): string {
  let input = `${domain}\0`
  for (const part of parts) input += `${Buffer.byteLength(part, 'utf8')}:${part}\0`
  return idFrom(kind, hash('sha256', input, 'buffer'))
}

/**
 * The event id of the logical event (scope, idempotency_key) (spec §8). The scope is part of it
 * because idempotency is per scope ledger: the same key in two scopes names two events.
 */
export function eventIdFor (scope: string, idempotencyKey: string): string {
  return derivedId('event', EVENT_ID_DOMAIN, [scope, idempotencyKey])
}

const TYPED_ID_PATTERNS = new Map<IdKind, RegExp>()

/** The schema's typedId pattern (schema/ledger.ts), compiled once per kind: buildEvent checks every causal ref. */
export function isTypedId (kind: IdKind, value: unknown): value is string {
  let pattern = TYPED_ID_PATTERNS.get(kind)
  if (pattern === undefined) TYPED_ID_PATTERNS.set(kind, pattern = new RegExp(`^${ID_PREFIXES[kind]}_[a-z2-7]{26}$`))
  return typeof value === 'string' && pattern.test(value)
}
