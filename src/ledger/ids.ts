import { hash } from 'node:crypto'
import { ID_PREFIXES, type IdKind } from '../schema/ledger-lines.js'
import { EVENT_ID_DOMAIN, ID_BYTES } from './constants.js'

/**
 * Typed ids of spec §7: `<prefix>_<26 lower-case base32 characters>`, 128 bits. Random ids (runs,
 * instances, leases) take their randomness from the caller; event ids are derived from the scope and
 * idempotency key, so the same logical event always has the same id (spec §8).
 */

/** n bytes of randomness, injected (crypto.randomBytes in production, a seeded source in tests). */
export type RandomBytes = (n: number) => Uint8Array

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))

/**
 * Where ids are spelled out before becoming one string: writing character codes here and reading the
 * string off once allocates only the result, where `+=` per character allocated a string per step.
 * Each call finishes with it before returning (nothing here calls out), so one buffer serves all.
 */
const scratch = Buffer.allocUnsafeSlow(64)

/** The scratch buffer, or a fresh one for a longer text (not kept: ids are 30 characters). */
function scratchOf (length: number): Buffer {
  return length <= scratch.length ? scratch : Buffer.allocUnsafe(length)
}

/** Writes RFC 4648 §6 base32 (lower-case, no padding) of `bytes[0, length)` at `offset` of `out`; returns the end offset. */
function writeBase32 (bytes: Uint8Array, length: number, out: Uint8Array, offset: number): number {
  let at = offset
  let buffer = 0
  let bits = 0
  for (let i = 0; i < length; i++) {
    buffer = (buffer << 8) | (bytes[i] as number)
    bits += 8
    while (bits >= 5) {
      out[at++] = ALPHABET_CODES[(buffer >>> (bits - 5)) & 31] as number
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out[at++] = ALPHABET_CODES[(buffer << (5 - bits)) & 31] as number
  return at
}

/** RFC 4648 §6 base32, lower-case, without padding. */
export function encodeBase32 (bytes: Uint8Array): string {
  const out = scratchOf(Math.ceil(bytes.length * 8 / 5))
  return out.toString('latin1', 0, writeBase32(bytes, bytes.length, out, 0))
}

/** The id bytes of a derived id: the first ID_BYTES of a digest, read off its latin1 form. */
const digestBytes = new Uint8Array(ID_BYTES)

/** `<prefix>_<base32 of bytes[0, ID_BYTES)>`, read off the scratch as one string. */
function idFrom (kind: IdKind, bytes: Uint8Array): string {
  const prefix = ID_PREFIXES[kind]
  const out = scratchOf(prefix.length + 1 + Math.ceil(ID_BYTES * 8 / 5))
  const start = out.write(prefix, 0, 'latin1')
  out[start] = 95 // '_'
  return out.toString('latin1', 0, writeBase32(bytes, ID_BYTES, out, start + 1))
}

export function randomId (kind: IdKind, random: RandomBytes): string {
  const bytes = random(ID_BYTES)
  if (bytes.length < ID_BYTES) throw new RangeError(`random(${ID_BYTES}) returned ${bytes.length} bytes`)
  return idFrom(kind, bytes)
}

/** Hash inputs up to this many bytes are spelled out in a reused buffer; longer ones go through a string. */
const MAX_SCRATCH_INPUT = 2048
const inputScratch = Buffer.allocUnsafeSlow(MAX_SCRATCH_INPUT)
/** Views of inputScratch by length: hashing a prefix of it allocates nothing once its length was seen. */
const inputViews = new Map<number, Buffer>()

/** Writes the decimal digits of the non-negative integer `n` at `at`; returns the end offset. */
function writeDecimal (n: number, out: Uint8Array, at: number): number {
  let digits = 1
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++
  for (let i = at + digits - 1, rest = n; i >= at; i--, rest = Math.floor(rest / 10)) out[i] = 48 + (rest % 10)
  return at + digits
}

/**
 * The bytes derivedId hashes, in inputScratch: `<domain>\0` then `<UTF-8 length>:<part>\0` per part
 * (UTF-8 as Buffer and crypto.hash encode strings, lone surrogates as U+FFFD). Undefined when they might
 * not fit; the caller then hashes the same text built as a string.
 */
function scratchInput (domain: string, parts: readonly string[]): Buffer | undefined {
  // A UTF-16 unit is at most 3 UTF-8 bytes; a length takes at most 16 digits.
  let bound = 3 * domain.length + 1
  for (const part of parts) bound += 3 * part.length + 18
  if (bound > MAX_SCRATCH_INPUT) return undefined
  let at = inputScratch.write(domain, 0, 'utf8')
  inputScratch[at++] = 0
  for (const part of parts) {
    at = writeDecimal(Buffer.byteLength(part, 'utf8'), inputScratch, at)
    inputScratch[at++] = 58 // ':'
    at += inputScratch.write(part, at, 'utf8')
    inputScratch[at++] = 0
  }
  let view = inputViews.get(at)
  if (view === undefined) inputViews.set(at, view = inputScratch.subarray(0, at))
  return view
}

function stringInput (domain: string, parts: readonly string[]): string {
  let input = `${domain}\0`
  for (const part of parts) input += `${Buffer.byteLength(part, 'utf8')}:${part}\0`
  return input
}

/**
 * An id that is a function of `parts`: SHA-256 of the domain tag and the parts, each prefixed with
 * its UTF-8 length, so no two different lists of parts (`['a:b']` vs `['a', 'b']`) share an id.
 * Every event gets one (eventIdFor), so the input is written into a reused buffer rather than built
 * as a string, and the digest comes as a 'binary' (latin1) string, one character per byte (one small
 * string, where a Buffer is an ArrayBuffer and a view per id).
 */
export function derivedId (kind: IdKind, domain: string, parts: readonly string[]): string {
  const digest = hash('sha256', scratchInput(domain, parts) ?? stringInput(domain, parts), 'binary')
  for (let i = 0; i < ID_BYTES; i++) digestBytes[i] = digest.charCodeAt(i)
  return idFrom(kind, digestBytes)
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
