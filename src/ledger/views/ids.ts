import { hash } from 'node:crypto'
import { ID_PREFIXES, type ViewObjectType } from '../../schema/index.js'
import { VIEW_REDUCER } from './constants.js'

/**
 * Typed ids (Memory Format Spec V3.1 §7): `<prefix>_<26 characters of RFC 4648 base32, lower case>`,
 * 128 bits, the same form as the ledger's derived ids. View ids are derived, never random: SHA-256 of
 * a domain tag and a list of parts, each prefixed with its UTF-8 length (so `['a:b']` and
 * `['a', 'b']` never share an id). Reducing the same memory twice therefore names the same object,
 * which is what makes re-reduction idempotent (spec §9: the newer line for an id replaces the older).
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567' // RFC 4648 §6, lower case
const ID_BYTES = 16
const VIEW_ID_DOMAIN = `${VIEW_REDUCER}/id`
const NUL = 0
const COLON = 0x3a
const UNDERSCORE = 0x5f

/**
 * The hashed bytes and then the id's characters are assembled in one reused buffer, so an id costs
 * its own string and little else (three to four ids per reduction; a string built piece by piece
 * left a few dozen intermediate strings behind). Synchronous: no call can interleave with another
 * between filling the buffer and reading it.
 */
let scratch = Buffer.alloc(1024)

export function deriveTypedId (prefix: string, parts: readonly string[]): string {
  let length = 3 * VIEW_ID_DOMAIN.length + prefix.length + 27 // the id is written there afterwards
  for (const part of parts) length += 12 + 3 * part.length // NUL, ≤ 10 digits, colon; ≤ 3 bytes per UTF-16 unit
  if (length > scratch.length) scratch = Buffer.alloc(Math.max(length, 2 * scratch.length))
  // The text `<domain>(\0<UTF-8 length>:<part>)*` as UTF-8, as TextEncoder would give it.
  let at = scratch.write(VIEW_ID_DOMAIN, 0, 'utf8')
  for (const part of parts) {
    scratch[at++] = NUL
    // Buffer's count is utf8Length's (lone surrogates included: both count U+FFFD, 3 bytes).
    at = writeDecimal(Buffer.byteLength(part, 'utf8'), at)
    scratch[at++] = COLON
    at += scratch.write(part, at, 'utf8')
  }
  // node:crypto in one native call (several times faster than a SHA-256 written in JS); the digest
  // as a latin1 ('binary') string, one character per byte: no Buffer object for 32 bytes.
  const digest = hash('sha256', scratch.subarray(0, at), 'binary')
  // The id's characters then overwrite the hashed bytes: one latin1 read makes the id's string.
  if (!isAscii(prefix)) return `${prefix}_${scratch.toString('latin1', 0, writeBase32(digest, 0))}` // never for ID_PREFIXES
  let out = scratch.write(prefix, 0, 'latin1')
  scratch[out++] = UNDERSCORE
  out = writeBase32(digest, out)
  return scratch.toString('latin1', 0, out)
}

function isAscii (text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

/** The decimal digits of `n` (a byte count) at `at`; returns the offset after them. */
function writeDecimal (n: number, at: number): number {
  let digits = 1
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++
  for (let i = digits - 1, rest = n; i >= 0; i--, rest = Math.floor(rest / 10)) scratch[at + i] = 0x30 + (rest % 10)
  return at + digits
}

/**
 * RFC 4648 §6 base32, lower case, unpadded, of the first ID_BYTES bytes of `bytes` (one byte per
 * character) into the scratch buffer at `at`: 26 characters, the last carrying 3 bits. Returns the
 * offset after them.
 */
function writeBase32 (bytes: string, at: number): number {
  let buffer = 0
  let bits = 0
  for (let i = 0; i < ID_BYTES; i++) {
    buffer = ((buffer << 8) | bytes.charCodeAt(i)) & 0xfff // at most 4 bits are left over between bytes
    bits += 8
    while (bits >= 5) {
      scratch[at++] = ALPHABET.charCodeAt((buffer >> (bits - 5)) & 31)
      bits -= 5
    }
  }
  if (bits > 0) scratch[at++] = ALPHABET.charCodeAt((buffer << (5 - bits)) & 31)
  return at
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
