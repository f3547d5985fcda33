/*
 * Binary keys as JavaScript strings (layout 7): a "binary string" holds one byte per
 * character (0–255), so the key code keeps building keys by concatenation, slicing them and
 * comparing them (code-unit order is byte order), and LATIN1 writes each character as its byte.
 * What was text in a key goes through these helpers:
 *
 * - a record id (record-v1 R6: `bafyrei`, then one of a–h, 50 base32 characters, one of
 *   `aeimquy4`; 59 characters holding a 256-bit digest) is 32 bytes: the 3 + 50 × 5 + 3 bits of its
 *   varying characters, each character as its rank in ASCII order among the characters that can
 *   stand there. The packing is a bijection that keeps order: keys sort exactly as the ids' text
 *   does (the accessors' "id order", the query order's id tie-break), and the id is read back at
 *   the store's edge by unpacking, with no base32 arithmetic;
 * - other text (a tag) is its UTF-8 bytes, so a tag outside Latin-1 keeps a distinct key.
 */

/** The 32 bytes a record id's key holds. */
export const ID_BYTES = 32

/** abstract-level key/value encoding of binary strings: one byte per character. */
export const LATIN1 = {
  name: 'isnad-latin1',
  format: 'buffer' as const,
  encode: (text: string): Buffer => Buffer.from(text, 'latin1'),
  decode: (bytes: Buffer): string => bytes.toString('latin1')
}

/** What `bafyrei` is followed by, what comes next (×50), and the last character: each in ASCII order. */
const FIRST = 'abcdefgh'
const MIDDLE = '234567abcdefghijklmnopqrstuvwxyz'
const LAST = '4aeimquy'
const FIXED = 'bafyrei'
const MIDDLE_CHARS = 50
const rankTable = (chars: string): Int8Array => {
  const table = new Int8Array(128).fill(-1)
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = i
  return table
}
const FIRST_RANK = rankTable(FIRST)
const MIDDLE_RANK = rankTable(MIDDLE)
const LAST_RANK = rankTable(LAST)
const codes = (chars: string): number[] => [...chars].map((c) => c.charCodeAt(0))
const FIRST_CODES = codes(FIRST)
const MIDDLE_CODES = codes(MIDDLE)
const LAST_CODES = codes(LAST)
const ID_CHARS = FIXED.length + 1 + MIDDLE_CHARS + 1
/*
 * The buffer idOfKey fills and copies out of as one string: about half the cost of building the
 * string character by character. Nothing awaits in between, so one is enough.
 */
const ID_SCRATCH = Buffer.alloc(ID_CHARS)
ID_SCRATCH.write(FIXED, 'latin1')

/*
 * The buffer idKeyOf packs into and copies out of as one string: the key of every record an ingest
 * stores, and the keys beside it, are built here (several per record), and one Latin-1 copy costs
 * far less than a list of bytes spread into String.fromCharCode.
 */
const KEY_SCRATCH = Buffer.alloc(ID_BYTES)

/**
 * The key of a record id (32 bytes as a binary string), or undefined when `id` is not a record id
 * (isRecordCid's pattern, checked here character by character by the rank tables as the bits are
 * packed: no character outside a position's alphabet has a rank).
 */
export function idKeyOf (id: string): string | undefined {
  if (id.length !== ID_CHARS || !id.startsWith(FIXED)) return undefined
  let buffer = FIRST_RANK[id.charCodeAt(FIXED.length)] ?? -1
  if (buffer < 0) return undefined
  let bits = 3
  let at = 0
  for (let i = FIXED.length + 1; i < ID_CHARS - 1; i++) {
    const rank = MIDDLE_RANK[id.charCodeAt(i)] ?? -1
    if (rank < 0) return undefined
    buffer = ((buffer << 5) | rank) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      KEY_SCRATCH[at++] = (buffer >>> bits) & 0xff
    }
  }
  const last = LAST_RANK[id.charCodeAt(ID_CHARS - 1)] ?? -1
  if (last < 0) return undefined
  // 3 + 50 × 5 + 3 = 256 bits: the last character completes the 32nd byte exactly.
  KEY_SCRATCH[at] = ((buffer << 3) | last) & 0xff
  return KEY_SCRATCH.toString('latin1', 0, ID_BYTES)
}

/** The key of an id the caller knows is a record id (one it stored or a schema-checked reference). */
export function idKey (id: string): string {
  const key = idKeyOf(id)
  if (key === undefined) throw new TypeError(`${id.slice(0, 80)} is not a record id`)
  return key
}

/**
 * The key to look an arbitrary id up with: its idKey, or '' for a string that is no record id,
 * which no key of a record equals (they are ID_BYTES long), so the lookup finds nothing.
 */
export function lookupKey (id: string): string {
  return idKeyOf(id) ?? ''
}

/** The record id whose key is the ID_BYTES characters of `key` from `at`. */
export function idOfKey (key: string, at = 0): string {
  let buffer = 0
  let bits = 0
  let next = 0
  const take = (width: number): number => {
    while (bits < width) {
      buffer = ((buffer << 8) | (key.charCodeAt(at + next++) & 0xff)) & 0xffff
      bits += 8
    }
    bits -= width
    return (buffer >>> bits) & ((1 << width) - 1)
  }
  ID_SCRATCH[FIXED.length] = FIRST_CODES[take(3)] as number
  for (let i = 0; i < MIDDLE_CHARS; i++) ID_SCRATCH[FIXED.length + 1 + i] = MIDDLE_CODES[take(5)] as number
  ID_SCRATCH[ID_CHARS - 1] = LAST_CODES[take(3)] as number
  return ID_SCRATCH.toString('latin1', 0, ID_CHARS)
}

/** Text as the binary string of its UTF-8 bytes (ASCII stays as it is). */
export function utf8Key (text: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1')
}

/** A non-negative safe integer as `width` bytes big-endian (a binary string), so byte order is numeric order. */
export function uintKey (value: number, width: number): string {
  let out = ''
  let rest = value
  for (let i = 0; i < width; i++) {
    out = String.fromCharCode(rest % 256) + out
    rest = Math.floor(rest / 256)
  }
  return out
}

/** The inverse of uintKey for the `width` characters of `key` from `at`. */
export function uintOfKey (key: string, at: number, width: number): number {
  let value = 0
  for (let i = 0; i < width; i++) value = value * 256 + (key.charCodeAt(at + i) & 0xff)
  return value
}

/** The smallest binary string above every string that starts with `prefix` (a range's `lt`). */
export function prefixEnd (prefix: string): string {
  let end = prefix.length
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xff) end--
  if (end === 0) throw new TypeError('a prefix of only 0xff bytes has no end')
  return prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1)
}
