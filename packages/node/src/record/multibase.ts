/*
 * The two RFC 4648 codecs on the verification path, as multiformats implements them
 * (multiformats/src/bases/base.js, `encode` and `decode`), with table lookups on character codes
 * instead of property lookups on one-character strings: each runs once or twice per record, and
 * multiformats' generic versions cost more than hashing the record. Same algorithm, same results,
 * same refusals: test/unit/record/multibase.test.ts checks both against multiformats.
 */

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Character code → 6-bit value, −1 for a character outside the alphabet. */
const BASE64_VALUES = Int8Array.from({ length: 128 }, (_, code) => BASE64_ALPHABET.indexOf(String.fromCharCode(code)))

/** Character codes of the base32 alphabet, by 5-bit value. */
const BASE32_CODES = Uint8Array.from(BASE32_ALPHABET, (char) => char.charCodeAt(0))
/** Every character written is ASCII, whose UTF-8 is its code: one native decode makes the string. */
const asciiDecoder = new TextDecoder()

/**
 * Multibase base32 (`b` + RFC 4648 §6 lower case, no padding): the canonical form of a CIDv1. The
 * characters are written as codes and turned into a string once: appending them one at a time built
 * ~60 intermediate strings per id (about 1.8 KB), which a Map lookup then had to flatten.
 */
export function encodeBase32Multibase (bytes: Uint8Array): string {
  // A fresh buffer per call (a CID's 36 bytes make 59 characters): no state shared between calls.
  const out = new Uint8Array(1 + Math.ceil(bytes.length * 8 / 5))
  out[0] = 0x62 // 'b'
  let written = 1
  let bits = 0
  let buffer = 0
  for (let i = 0; i < bytes.length; i++) {
    buffer = (buffer << 8) | (bytes[i] as number)
    bits += 8
    while (bits > 5) {
      bits -= 5
      out[written++] = BASE32_CODES[31 & (buffer >> bits)] as number
    }
  }
  if (bits !== 0) out[written++] = BASE32_CODES[31 & (buffer << (5 - bits))] as number
  return asciiDecoder.decode(written === out.length ? out : out.subarray(0, written))
}

/**
 * Standard base64 without padding (RFC 4648 §4), decoded like multiformats' `base64.baseDecode`:
 * trailing `=` are ignored, any other character outside the alphabet throws, and so do a dangling
 * character and non-zero spare bits in the last one (one value, one spelling).
 */
export function decodeBase64 (text: string): Uint8Array {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d) --end
  const out = new Uint8Array((end * 6 / 8) | 0)
  let bits = 0
  let buffer = 0
  let written = 0
  for (let i = 0; i < end; ++i) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? BASE64_VALUES[code] as number : -1
    if (value < 0) throw new SyntaxError('Non-base64 character')
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[written++] = 0xff & (buffer >> bits)
    }
  }
  if (bits >= 6 || (0xff & (buffer << (8 - bits))) !== 0) throw new SyntaxError('Unexpected end of data')
  return out
}
