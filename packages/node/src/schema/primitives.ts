import { CID } from 'multiformats/cid'
import { z } from 'zod'
import { MAX_DID_BYTES } from './record-limits.js'

/**
 * UTF-8 length of a string without encoding it (the hot path of record validation calls this for
 * every text field). Equal to `new TextEncoder().encode(value).length`, lone surrogates included
 * (TextEncoder writes them as U+FFFD, 3 bytes); test/unit/schema/primitives.test.ts checks it.
 */
export function utf8Length (value: string): number {
  let bytes = value.length
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    if (unit < 0x80) continue
    if (unit < 0x800) {
      bytes += 1
    } else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
      bytes += 2 // a surrogate pair: 2 UTF-16 units, 4 UTF-8 bytes
      i++
    } else {
      bytes += 2
    }
  }
  return bytes
}

function isLowSurrogate (unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}

/** Marks a zod issue so that decoders report FIELD_TOO_LARGE rather than SCHEMA_INVALID. */
export const TOO_LARGE = { isnad: 'FIELD_TOO_LARGE' } as const

/**
 * True when `value` holds a control character (other than tab, LF and CR where `allowNewlines`) or
 * an unpaired surrogate, which DAG-CBOR would write as U+FFFD, so that two different strings would
 * share one encoding and one id (record-v1 R3). It answers as the u-flag patterns
 * `/[\u0000-\u001F\u007F]|[\uD800-\uDFFF]/u` and
 * `/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDFFF]/u` (whose surrogate class
 * matches only unpaired ones) did, in one pass over the UTF-16 units: the regexes cost several times
 * as much on a record's body, and every record has text. The test checks both agree.
 */
export function hasForbiddenText (value: string, allowNewlines: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    if (unit < 0x20) {
      if (!allowNewlines || (unit !== 0x09 && unit !== 0x0a && unit !== 0x0d)) return true
    } else if (unit === 0x7f) {
      return true
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      if (unit > 0xdbff || !isLowSurrogate(value.charCodeAt(i + 1))) return true
      i++ // a well-formed pair: one code point above U+FFFF
    }
  }
  return false
}

/** True when `value` has at most `maxBytes` UTF-8 bytes; a UTF-16 unit is at most 3 of them, so short strings skip the count. */
export function isWithinBytes (value: string, maxBytes: number): boolean {
  return value.length * 3 <= maxBytes || utf8Length(value) <= maxBytes
}

/**
 * A string of at most `maxBytes` UTF-8 bytes, well-formed Unicode, with no control characters
 * (`\t`, `\n`, `\r` allowed where `allowNewlines`) (record-v1 R3, R8). JSON Schema cannot count bytes,
 * so the generated schema carries `maxLength: maxBytes`, which every valid value meets (a code
 * point is at least one byte) but which is not sufficient (record-v1 §9).
 */
export function boundedText (maxBytes: number, { allowNewlines = false, min = 0 } = {}): z.ZodString {
  return z.string()
    .min(min)
    .refine((s) => isWithinBytes(s, maxBytes), {
      message: `longer than ${maxBytes} UTF-8 bytes`, params: TOO_LARGE
    })
    .refine((s) => !hasForbiddenText(s, allowNewlines), {
      message: allowNewlines ? 'contains control characters or lone surrogates' : 'contains control characters, line breaks or lone surrogates'
    })
    .meta({
      maxLength: maxBytes,
      description: `At most ${maxBytes} UTF-8 bytes; no control characters${allowNewlines ? ' other than tab, LF and CR' : ''}; no lone surrogates.`
    })
}

/** `YYYY-MM-DDTHH:MM:SS[.mmm]Z`: UTC, second precision, optional milliseconds (record-v1 R5). */
export const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z$/

/**
 * True for a real UTC instant written as `YYYY-MM-DDTHH:MM:SS[.mmm]Z` (record-v1 R5): the pattern,
 * then a calendar check (proleptic Gregorian, no leap seconds, no 24:00). Arithmetic rather than
 * Date.parse, which rolls 2026-02-30 over to March; the test checks both agree on every input.
 */
export function isIsoTimestamp (value: string): boolean {
  return TIMESTAMP_PATTERN.test(value) && isCalendarInstant(value)
}

/**
 * The calendar check of isIsoTimestamp for a string already known to match TIMESTAMP_PATTERN, whose
 * fields are then ASCII digits at fixed places (`YYYY-MM-DDTHH:MM:SS`): read where they stand
 * rather than through the pattern's captures, as the schema checks every record's timestamps.
 */
export function isCalendarInstant (value: string): boolean {
  const month = digitsAt(value, 5, 2)
  const day = digitsAt(value, 8, 2)
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(digitsAt(value, 0, 4), month) &&
    digitsAt(value, 11, 2) <= 23 && digitsAt(value, 14, 2) <= 59 && digitsAt(value, 17, 2) <= 59
}

/** The number written by `count` ASCII digits at `at`. */
function digitsAt (value: string, at: number, count: number): number {
  let n = 0
  for (let i = at; i < at + count; i++) n = n * 10 + value.charCodeAt(i) - 0x30
  return n
}

function daysInMonth (year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

const TIMESTAMP_MESSAGE = 'must be a UTC ISO-8601 timestamp like 2026-02-05T16:00:00Z'

/**
 * record-v1 R5. The pattern survives into JSON Schema; the calendar check does not. The pattern
 * aborts on failure, so the calendar check only sees strings that match it.
 */
export const isoTimestamp = z.string()
  .regex(TIMESTAMP_PATTERN, { message: TIMESTAMP_MESSAGE, abort: true })
  .refine(isCalendarInstant, { message: TIMESTAMP_MESSAGE })

/**
 * `did:key` syntax only (record-v1 R7), at most 128 characters (R8); the key inside is decoded when a
 * signature is checked (R10).
 */
type InstantOrder = 'after' | 'not after' | 'not before'
const COMPARE: Readonly<Record<InstantOrder, (a: number, b: number) => boolean>> = {
  after: (a, b) => a > b,
  'not after': (a, b) => a <= b,
  'not before': (a, b) => a >= b
}

/**
 * A refinement of a record's object schema, spread into `.refine(…)`: the instant `field`, when
 * present, is `order` the instant `other` — compared as instants, not strings ('…00.500Z' sorts
 * before '…00Z', record-v1 R14). The issue names `field` and says what is wrong.
 */
export function instantOrder (
  field: string, order: InstantOrder, other: string, message = `${field} must ${order === 'after' ? 'be' : 'not be'} ${order.replace('not ', '')} ${other}`
): [(value: object) => boolean, { message: string, path: string[] }] {
  const check = (value: object): boolean => {
    const at = (value as Record<string, unknown>)[field]
    return at === undefined || COMPARE[order](Date.parse(at as string), Date.parse((value as Record<string, unknown>)[other] as string))
  }
  return [check, { message, path: [field] }]
}

/** record-v1 R7: `did:key:` and base58btc multibase. */
export const DID_KEY_PATTERN = /^did:key:z[1-9A-HJ-NP-Za-km-z]+$/

export const didKey = z.string()
  .max(MAX_DID_BYTES)
  .regex(DID_KEY_PATTERN, 'must be a did:key (base58btc multibase)')

/**
 * True when `value` is the canonical (base32, lower-case) string of a CIDv1. The string is rebuilt
 * from the bytes: CID.parse remembers its input, so `CID.parse(s).toString()` returns `s` itself,
 * mixed case and all.
 */
export function isCanonicalCidV1 (value: string, codec?: number): boolean {
  try {
    const cid = CID.parse(value)
    return cid.version === 1 && CID.decode(cid.bytes).toString() === value && (codec === undefined || cid.code === codec)
  } catch {
    return false
  }
}

/**
 * The canonical string of every CIDv1 (dag-cbor 0x71, sha2-256 0x12, 32-byte digest): multibase
 * `b` (base32 lower case, RFC 4648, unpadded) of the 36 bytes `01 71 12 20 ‖ digest`, 58 characters. The four
 * fixed bytes spell `afyrei` and the high two bits of the next character (so it is one of a–h); the
 * last character holds 3 bits of digest and 2 zero bits (so it is one of a e i m q u y 4). The
 * pattern is therefore exact, with no CID parsing on the hot path; test/unit/schema checks it
 * against multiformats (record-v1 R6).
 */
export const RECORD_CID_PATTERN = /^bafyrei[a-h][a-z2-7]{50}[aeimquy4]$/

export function isRecordCid (value: string): boolean {
  return RECORD_CID_PATTERN.test(value)
}

/** A reference to an isnad record: CIDv1, dag-cbor, sha2-256, canonical base32 string (record-v1 R6). */
export const recordCid = z.string()
  .regex(RECORD_CID_PATTERN, 'must be a canonical CIDv1 (dag-cbor, sha2-256) string')

/** Characters of a CID a cid anchor may reference (R8). */
export const MAX_CID_CHARS = 128

/** Any canonical CIDv1 (cid anchors reference content in any codec; record-v1 R13). */
export const anyCid = z.string().max(MAX_CID_CHARS).refine((value) => isCanonicalCidV1(value), {
  message: 'must be a canonical CIDv1 string'
})

/**
 * Unpadded standard base64 of a 64-byte Ed25519 signature (86 characters; record-v1 R9). Whether
 * the last character's 4 spare bits are zero is checked when the signature is decoded
 * (SIGNATURE_MALFORMED), not here.
 */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{86}$/
export const signatureBase64 = z.string().regex(SIGNATURE_PATTERN, 'must be 86 characters of unpadded base64 (64 bytes)')

/**
 * Unpadded standard base64 of an 80-byte ECVRF proof (107 characters; record-v1 R19), the
 * convention of `signature`. Whether the last character's 2 spare bits are zero is checked when the
 * proof is decoded (DRAW_INVALID), not here.
 */
export const VRF_PROOF_PATTERN = /^[A-Za-z0-9+/]{107}$/
export const vrfProofBase64 = z.string().regex(VRF_PROOF_PATTERN, 'must be 107 characters of unpadded base64 (80 bytes)')
