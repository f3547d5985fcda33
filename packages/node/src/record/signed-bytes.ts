/**
 * The canonical DAG-CBOR of a signed record `{ record, signature }` (record-v1 §2.4) is fixed bytes
 * around the record's own canonical encoding, because DAG-CBOR sorts map keys by length first and
 * `record` (6 bytes) is shorter than `signature` (9 bytes):
 *
 *     a2                               map of 2 entries
 *     66 72 65 63 6f 72 64             text(6) "record"
 *     <canonical record bytes>
 *     69 73 69 67 6e 61 74 75 72 65    text(9) "signature"
 *     <text header> <signature bytes>  text(n), header 78 56 for the 86 characters of every valid signature
 *
 * So the record is encoded once and the signed size is arithmetic (record-v1 R8):
 * `size = |record| + 18 + textHeaderLength(n) + n`, that is `|record| + 106` when n = 86.
 * test/unit/record/signed-bytes.test.ts checks this against @ipld/dag-cbor.
 */

const utf8 = new TextEncoder()
const PREFIX = Uint8Array.from([0xa2, 0x66, ...utf8.encode('record')])
const SIGNATURE_KEY = Uint8Array.from([0x69, ...utf8.encode('signature')])
/** Bytes of the map header, both keys and their headers: 1 + 7 + 10. */
const FIXED_BYTES = PREFIX.length + SIGNATURE_KEY.length

/**
 * Length of the CBOR header of a text string of `length` bytes (RFC 8949 §3: the shortest form).
 * JavaScript strings stay far below 2³² UTF-8 bytes, so the 9-byte form never occurs.
 */
export function cborTextHeaderLength (length: number): number {
  if (length < 24) return 1
  if (length < 0x100) return 2
  if (length < 0x10000) return 3
  return 5
}

/** Size of the canonical encoding of `{ record, signature }` from the two parts' byte lengths. */
export function signedRecordSize (recordByteLength: number, signatureByteLength: number): number {
  return FIXED_BYTES + recordByteLength + cborTextHeaderLength(signatureByteLength) + signatureByteLength
}

/** Writes the header of a text string of `length` bytes at `at`; returns where the text starts. */
function writeTextHeader (out: Uint8Array, at: number, length: number): number {
  if (length < 24) {
    out[at] = 0x60 | length
    return at + 1
  }
  if (length < 0x100) {
    out[at] = 0x78
    out[at + 1] = length
    return at + 2
  }
  if (length < 0x10000) {
    out[at] = 0x79
    out[at + 1] = length >>> 8
    out[at + 2] = length & 0xff
    return at + 3
  }
  out[at] = 0x7a
  out[at + 1] = length >>> 24
  out[at + 2] = (length >>> 16) & 0xff
  out[at + 3] = (length >>> 8) & 0xff
  out[at + 4] = length & 0xff
  return at + 5
}

/**
 * The UTF-8 bytes of the signature text, or undefined when it is ASCII (every valid signature is:
 * base64), whose bytes are its character codes and need no encoder.
 */
function nonAsciiBytes (text: string): Uint8Array | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return utf8.encode(text)
  }
  return undefined
}

/** The canonical bytes of `{ record, signature }` from the record's canonical bytes. */
export function encodeSignedRecordBytes (recordBytes: Uint8Array, signature: string): Uint8Array {
  const signatureBytes = nonAsciiBytes(signature)
  const length = signatureBytes?.length ?? signature.length
  const out = new Uint8Array(signedRecordSize(recordBytes.length, length))
  out.set(recordBytes, RECORD_OFFSET)
  writeAroundRecord(out, recordBytes.length, signature, signatureBytes)
  return out
}

/** Where the record's canonical bytes start in the canonical bytes of `{ record, signature }`. */
export const RECORD_OFFSET = PREFIX.length

/**
 * Completes, in place, the canonical bytes of `{ record, signature }` around a record whose
 * canonical bytes `out` already holds at RECORD_OFFSET (`recordByteLength` of them): the map
 * header and keys before, the signature after. Returns the signed length, or undefined when `out`
 * is too short for it (nothing is written then).
 */
export function wrapRecordInPlace (out: Uint8Array, recordByteLength: number, signature: string): number | undefined {
  const signatureBytes = nonAsciiBytes(signature)
  const size = signedRecordSize(recordByteLength, signatureBytes?.length ?? signature.length)
  if (size > out.length) return undefined
  writeAroundRecord(out, recordByteLength, signature, signatureBytes)
  return size
}

function writeAroundRecord (out: Uint8Array, recordByteLength: number, signature: string, signatureBytes: Uint8Array | undefined): void {
  const length = signatureBytes?.length ?? signature.length
  out.set(PREFIX, 0)
  out.set(SIGNATURE_KEY, PREFIX.length + recordByteLength)
  const at = writeTextHeader(out, PREFIX.length + recordByteLength + SIGNATURE_KEY.length, length)
  if (signatureBytes !== undefined) out.set(signatureBytes, at)
  else for (let i = 0; i < length; i++) out[at + i] = signature.charCodeAt(i)
}

/**
 * The record's canonical bytes inside the canonical bytes of `{ record, signature }` (the layout
 * above), without decoding: a view of `signedBytes`, or undefined when they are not laid out as
 * the encoding of a record signed with `signature` (wrong map header, keys, or signature text).
 * Whether the middle is a canonical record is not checked here: a store hashes it against the id.
 */
export function recordBytesIn (signedBytes: Uint8Array, signature: string): Uint8Array | undefined {
  const signatureBytes = nonAsciiBytes(signature)
  const length = signatureBytes?.length ?? signature.length
  const textHeader = new Uint8Array(5) // the longest text header (writeTextHeader)
  const headerLength = writeTextHeader(textHeader, 0, length)
  const suffixAt = signedBytes.length - (SIGNATURE_KEY.length + headerLength + length)
  if (suffixAt <= PREFIX.length) return undefined
  // Compared where they stand, without building the expected suffix: the gate peeks every record.
  if (!bytesAt(signedBytes, 0, PREFIX, PREFIX.length) || !bytesAt(signedBytes, suffixAt, SIGNATURE_KEY, SIGNATURE_KEY.length)) return undefined
  const headerAt = suffixAt + SIGNATURE_KEY.length
  if (!bytesAt(signedBytes, headerAt, textHeader, headerLength)) return undefined
  const textAt = headerAt + headerLength
  if (signatureBytes !== undefined) {
    if (!bytesAt(signedBytes, textAt, signatureBytes, length)) return undefined
  } else {
    for (let i = 0; i < length; i++) {
      if (signedBytes[textAt + i] !== signature.charCodeAt(i)) return undefined
    }
  }
  return signedBytes.subarray(PREFIX.length, suffixAt)
}

/** True when `bytes` holds the first `count` bytes of `expected` at `at`. */
function bytesAt (bytes: Uint8Array, at: number, expected: Uint8Array, count: number): boolean {
  for (let i = 0; i < count; i++) {
    if (bytes[at + i] !== expected[i]) return false
  }
  return true
}

/**
 * The record's canonical bytes inside the canonical bytes of `{ record, signature }` when the
 * signature is not known (a record read back from where the index located it): the signature is
 * the last item, so its key is found scanning back from the end, and its text header must end the
 * bytes exactly. Undefined when they are not laid out so. What is found is only a candidate: the
 * caller hashes it against the record's id, so a wrong split can only refuse a record, never
 * pass a wrong one.
 */
export function recordPartOf (signedBytes: Uint8Array): Uint8Array | undefined {
  const end = signedBytes.length
  if (end <= FIXED_BYTES || !bytesAt(signedBytes, 0, PREFIX, PREFIX.length)) return undefined
  for (let at = end - SIGNATURE_KEY.length - 1; at > PREFIX.length; at--) {
    if (signedBytes[at] !== SIGNATURE_KEY[0] || !bytesAt(signedBytes, at, SIGNATURE_KEY, SIGNATURE_KEY.length)) continue
    const text = textLengthAt(signedBytes, at + SIGNATURE_KEY.length)
    if (text !== undefined && text.start + text.length === end) return signedBytes.subarray(PREFIX.length, at)
  }
  return undefined
}

/** A CBOR text header at `at` (major type 3, definite length): where its text starts and how long it is. */
function textLengthAt (bytes: Uint8Array, at: number): { start: number, length: number } | undefined {
  const head = bytes[at]
  if (head === undefined || head >>> 5 !== 3) return undefined
  const info = head & 0x1f
  if (info < 24) return { start: at + 1, length: info }
  const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : 0
  if (size === 0 || at + size >= bytes.length) return undefined
  let length = 0
  for (let i = 1; i <= size; i++) length = length * 256 + (bytes[at + i] as number)
  return { start: at + 1 + size, length }
}
