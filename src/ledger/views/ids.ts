import { hash } from 'node:crypto'
import { ID_PREFIXES, utf8Length, type ViewObjectType } from '../../schema/index.js'
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

export function deriveTypedId (prefix: string, parts: readonly string[]): string {
  let text = VIEW_ID_DOMAIN
  for (const part of parts) text += `\0${utf8Length(part)}:${part}`
  // node:crypto hashes the UTF-8 bytes of the text, as TextEncoder would give them, in one native
  // call: three to four ids per reduction, several times faster than a SHA-256 written in JS.
  return `${prefix}_${encodeBase32(hash('sha256', text, 'buffer').subarray(0, ID_BYTES))}`
}

/** RFC 4648 §6 base32, lower case, unpadded: 16 bytes → 26 characters, the last carrying 3 bits. */
function encodeBase32 (bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff // at most 4 bits are left over between bytes
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31] ?? ''
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31] ?? ''
  return out
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
