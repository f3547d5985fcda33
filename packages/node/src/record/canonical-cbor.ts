import { RECORD_FIELD_NAMES_BY_LENGTH } from './record-field-names.js'

/*
 * Decoding and the canonical-form check of received bytes in one pass (record-v1 §2, R18). The
 * general path decodes with @ipld/dag-cbor (a token per item), parses, encodes the result again and
 * compares the bytes: three walks of every record and an allocation per item and per string. Here
 * one walk over the bytes builds the value and checks, item by item, that each is written the way
 * the DAG-CBOR encoder writes it, so that encoding the value again would give these very bytes:
 *
 * - every length and integer in its shortest form, definite lengths only (RFC 8949 §4.2.1);
 * - integers within ±(2⁵³ − 1): what the encoder writes for a JavaScript integer;
 * - other numbers as 64-bit floats (the encoder's `float64`), finite and not integral (an integral
 *   number, −0 included, is written as an integer);
 * - text as well-formed UTF-8, not starting with a byte order mark (the general decoder drops it);
 * - map keys as text, in DAG-CBOR order (shorter first, then bytewise), each once;
 * - `false`, `true`, `null`; nothing after the top item.
 *
 * Anything else — byte strings, tags (CIDs), `undefined`, other simple values, half floats, deeper
 * nesting than MAX_DEPTH, a `__proto__` key, or bytes that are not canonical — gives undefined, and
 * the caller takes the general path, which then decides, with its own error. So this never changes
 * a verdict: where it answers, the value is what dagCbor.decode returns for the bytes, and
 * dagCbor.encode of it returns the bytes (test/unit/record/canonical-cbor.test.ts checks both on
 * generated inputs and on every record vector); where it does not, nothing was decided here.
 */

/** Nesting deeper than this goes to the general path (a signed record nests 4 levels). */
const MAX_DEPTH = 16
/** Text shorter than this is read as Latin-1 when ASCII (one native call, one string); longer by TextDecoder. */
const SHORT_TEXT = 32
const MAX_SAFE = Number.MAX_SAFE_INTEGER
/** Throws on malformed UTF-8 rather than writing U+FFFD; keeps a leading BOM (refused before it is asked). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Where the walk is in the bytes; one per call, so calls share nothing. */
interface Cursor {
  readonly bytes: Uint8Array
  at: number
  view: DataView | undefined
  /** `bytes` as a Node Buffer, made on the first short text: its latin1 toString builds the string at once. */
  text: Latin1Text | undefined
}

/** What readText needs of a Node Buffer. */
interface Latin1Text { toString: (encoding: 'latin1', start: number, end: number) => string }

/** Node's Buffer where there is one; elsewhere (the dashboard's browser code) short text is built a character at a time. */
const HostBuffer = (globalThis as { Buffer?: { from: (buffer: ArrayBufferLike, offset: number, length: number) => Latin1Text } }).Buffer

/**
 * The value `bytes` encode, when they are exactly the canonical DAG-CBOR encoding of it within the
 * subset above; undefined otherwise (the general path then decides). The value is plain data: objects
 * with own enumerable properties in key order, packed arrays, strings, numbers, booleans, null.
 */
export function decodeCanonicalCbor (bytes: Uint8Array): unknown {
  const cursor: Cursor = { bytes, at: 0, view: undefined, text: undefined }
  const value = readItem(cursor, 0)
  return cursor.at === bytes.length ? value : undefined
}

function readItem (cursor: Cursor, depth: number): unknown {
  const { bytes } = cursor
  if (cursor.at >= bytes.length) return undefined
  const head = bytes[cursor.at++] as number
  const major = head >>> 5
  const info = head & 0x1f
  switch (major) {
    case 0: {
      const n = readArgument(cursor, info)
      return n < 0 ? undefined : n
    }
    case 1: {
      const n = readArgument(cursor, info)
      // −1 − n must be a safe integer: the encoder writes larger magnitudes as floats.
      return n < 0 || n >= MAX_SAFE ? undefined : -1 - n
    }
    case 3: {
      const length = readArgument(cursor, info)
      return length < 0 ? undefined : readText(cursor, length)
    }
    case 4: {
      const length = readArgument(cursor, info)
      if (length < 0 || depth >= MAX_DEPTH || length > bytes.length - cursor.at) return undefined
      const items: unknown[] = []
      for (let i = 0; i < length; i++) {
        const item = readItem(cursor, depth + 1)
        if (item === undefined) return undefined
        items.push(item)
      }
      return items
    }
    case 5: {
      const length = readArgument(cursor, info)
      if (length < 0 || depth >= MAX_DEPTH || length * 2 > bytes.length - cursor.at) return undefined
      return readMap(cursor, length, depth)
    }
    case 7:
      return readSimple(cursor, info)
    default: // byte strings (2) and tags (6): not in a record
      return undefined
  }
}

/**
 * The argument of a head (RFC 8949 §3): the value itself below 24, else the 1, 2, 4 or 8 bytes that
 * follow. −1 unless it is in its shortest form and at most 2⁵³ − 1 (and for indefinite lengths).
 */
function readArgument (cursor: Cursor, info: number): number {
  if (info < 24) return info
  const { bytes } = cursor
  const at = cursor.at
  switch (info) {
    case 24: {
      if (at + 1 > bytes.length) return -1
      cursor.at = at + 1
      const n = bytes[at] as number
      return n >= 24 ? n : -1
    }
    case 25: {
      if (at + 2 > bytes.length) return -1
      cursor.at = at + 2
      const n = ((bytes[at] as number) << 8) | (bytes[at + 1] as number)
      return n >= 0x100 ? n : -1
    }
    case 26: {
      if (at + 4 > bytes.length) return -1
      cursor.at = at + 4
      const n = readUint32(bytes, at)
      return n >= 0x10000 ? n : -1
    }
    case 27: {
      if (at + 8 > bytes.length) return -1
      cursor.at = at + 8
      const high = readUint32(bytes, at)
      const n = high * 0x100000000 + readUint32(bytes, at + 4)
      return high !== 0 && n <= MAX_SAFE ? n : -1
    }
    default:
      return -1
  }
}

function readUint32 (bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) * 0x1000000 + (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
}

/** Text of `length` bytes at the cursor: ASCII read directly when short, else strict UTF-8. */
function readText (cursor: Cursor, length: number): string | undefined {
  const { bytes } = cursor
  const start = cursor.at
  const end = start + length
  if (end > bytes.length) return undefined
  cursor.at = end
  if (length < SHORT_TEXT) {
    // ASCII is its own Latin-1: one string built natively, where appending a character at a time
    // allocated a string per character (~4 % of what a received record allocated).
    for (let i = start; i < end; i++) {
      if ((bytes[i] as number) >= 0x80) return decodeUtf8(bytes, start, end)
    }
    if (HostBuffer !== undefined) {
      cursor.text ??= HostBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      return cursor.text.toString('latin1', start, end)
    }
    let text = ''
    for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] as number)
    return text
  }
  return decodeUtf8(bytes, start, end)
}

function decodeUtf8 (bytes: Uint8Array, start: number, end: number): string | undefined {
  // A leading BOM: the general decoder's TextDecoder drops it, so these bytes are not what it
  // would encode again; it decides (as non-canonical).
  if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) return undefined
  try {
    return utf8.decode(bytes.subarray(start, end))
  } catch {
    return undefined // malformed UTF-8: the general decoder writes U+FFFD, which encodes otherwise
  }
}

function readMap (cursor: Cursor, length: number, depth: number): Record<string, unknown> | undefined {
  const { bytes } = cursor
  const map: Record<string, unknown> = {}
  let previousAt = -1
  let previousLength = 0
  for (let i = 0; i < length; i++) {
    if (cursor.at >= bytes.length) return undefined
    const head = bytes[cursor.at++] as number
    if (head >>> 5 !== 3) return undefined // DAG-CBOR keys are text
    const keyLength = readArgument(cursor, head & 0x1f)
    const keyAt = cursor.at
    if (keyLength < 0 || keyAt + keyLength > bytes.length) return undefined
    // DAG-CBOR order, strictly: shorter first, then bytewise; equal would be a repeated key.
    if (previousAt >= 0 && (keyLength < previousLength || (keyLength === previousLength && !bytesBefore(bytes, previousAt, keyAt, keyLength)))) return undefined
    const key = knownKey(bytes, keyAt, keyLength) ?? readText(cursor, keyLength)
    if (key === undefined || key === '__proto__') return undefined
    cursor.at = keyAt + keyLength
    previousAt = keyAt
    previousLength = keyLength
    const value = readItem(cursor, depth + 1)
    if (value === undefined) return undefined
    map[key] = value
  }
  return map
}

/** True when the `length` bytes at `a` sort strictly before those at `b`. */
function bytesBefore (bytes: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const x = bytes[a + i] as number
    const y = bytes[b + i] as number
    if (x !== y) return x < y
  }
  return false
}

/** The record-v1 field name spelled by the `length` bytes at `at`, if they spell one. */
function knownKey (bytes: Uint8Array, at: number, length: number): string | undefined {
  const candidates = RECORD_FIELD_NAMES_BY_LENGTH[length]
  if (candidates === undefined) return undefined
  for (const name of candidates) {
    let i = 0
    while (i < length && bytes[at + i] === name.charCodeAt(i)) i++
    if (i === length) return name
  }
  return undefined
}

function readSimple (cursor: Cursor, info: number): unknown {
  switch (info) {
    case 20: return false
    case 21: return true
    case 22: return null
    case 27: {
      const { bytes } = cursor
      const at = cursor.at
      if (at + 8 > bytes.length) return undefined
      cursor.at = at + 8
      cursor.view ??= new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      const n = cursor.view.getFloat64(at)
      // Integral numbers (−0 too) are written as integers, NaN and ±Infinity not at all.
      return Number.isFinite(n) && !Number.isInteger(n) ? n : undefined
    }
    default: // undefined (23), other simple values, half and single floats, break
      return undefined
  }
}
