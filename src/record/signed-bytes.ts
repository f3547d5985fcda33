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

/** Major type 3 (text) with the length in the additional information or the bytes after it. */
function textHeader (length: number): number[] {
  if (length < 24) return [0x60 | length]
  if (length < 0x100) return [0x78, length]
  if (length < 0x10000) return [0x79, length >>> 8, length & 0xff]
  return [0x7a, length >>> 24, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff]
}

/** The canonical bytes of `{ record, signature }` from the record's canonical bytes. */
export function encodeSignedRecordBytes (recordBytes: Uint8Array, signature: string): Uint8Array {
  const signatureBytes = utf8.encode(signature)
  const header = textHeader(signatureBytes.length)
  const out = new Uint8Array(signedRecordSize(recordBytes.length, signatureBytes.length))
  let at = 0
  for (const part of [PREFIX, recordBytes, SIGNATURE_KEY, Uint8Array.from(header), signatureBytes]) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export function equalBytes (a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false
  }
  return true
}

/**
 * The record's canonical bytes inside the canonical bytes of `{ record, signature }` (the layout
 * above), without decoding: a view of `signedBytes`, or undefined when they are not laid out as
 * the encoding of a record signed with `signature` (wrong map header, keys, or signature text).
 * Whether the middle is a canonical record is not checked here: a store hashes it against the id.
 */
export function recordBytesIn (signedBytes: Uint8Array, signature: string): Uint8Array | undefined {
  const signatureBytes = utf8.encode(signature)
  const suffix = [...SIGNATURE_KEY, ...textHeader(signatureBytes.length), ...signatureBytes]
  const recordLength = signedBytes.length - PREFIX.length - suffix.length
  if (recordLength <= 0) return undefined
  for (let i = 0; i < PREFIX.length; i++) {
    if (signedBytes[i] !== PREFIX[i]) return undefined
  }
  const suffixAt = PREFIX.length + recordLength
  for (let i = 0; i < suffix.length; i++) {
    if (signedBytes[suffixAt + i] !== suffix[i]) return undefined
  }
  return signedBytes.subarray(PREFIX.length, suffixAt)
}
