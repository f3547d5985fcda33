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
  out.set(PREFIX, 0)
  out.set(recordBytes, PREFIX.length)
  out.set(SIGNATURE_KEY, PREFIX.length + recordBytes.length)
  const at = writeTextHeader(out, PREFIX.length + recordBytes.length + SIGNATURE_KEY.length, length)
  if (signatureBytes !== undefined) out.set(signatureBytes, at)
  else for (let i = 0; i < length; i++) out[at + i] = signature.charCodeAt(i)
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
  const signatureBytes = nonAsciiBytes(signature)
  const length = signatureBytes?.length ?? signature.length
  const suffix = new Uint8Array(signedRecordSize(0, length) - PREFIX.length)
  suffix.set(SIGNATURE_KEY, 0)
  const textAt = writeTextHeader(suffix, SIGNATURE_KEY.length, length)
  if (signatureBytes !== undefined) suffix.set(signatureBytes, textAt)
  else for (let i = 0; i < length; i++) suffix[textAt + i] = signature.charCodeAt(i)
  const suffixAt = signedBytes.length - suffix.length
  if (suffixAt <= PREFIX.length) return undefined
  for (let i = 0; i < PREFIX.length; i++) {
    if (signedBytes[i] !== PREFIX[i]) return undefined
  }
  for (let i = 0; i < suffix.length; i++) {
    if (signedBytes[suffixAt + i] !== suffix[i]) return undefined
  }
  return signedBytes.subarray(PREFIX.length, suffixAt)
}
