import * as dagCbor from '@ipld/dag-cbor'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  cborTextHeaderLength, encodeCanonical, encodeSignedRecord, encodeSignedRecordBytes, recordBytesIn, signedRecordSize,
  signRecordVerified, verifiedIdOf, verifyRecordBytes
} from '../../../src/record/index.js'
import type { SignedRecord } from '../../../src/schema/index.js'
import { NOW, seedOf, VALID } from './fixtures.js'

describe('signed record bytes (record-v1 §2.4)', () => {
  it('signedRecordSize and encodeSignedRecordBytes match @ipld/dag-cbor for signatures of any length', () => {
    const lengths = fc.constantFrom(0, 1, 23, 24, 86, 255, 256, 65535, 65536, 70000)
    const signature = fc.oneof(
      lengths.map((n) => 'x'.repeat(n)),
      fc.string({ unit: 'binary', maxLength: 40 })
    )
    fc.assert(fc.property(fc.constantFrom(...VALID.vectors), signature, (vector, sig) => {
      const recordBytes = encodeCanonical(vector.signed.record)
      const expected = dagCbor.encode({ record: vector.signed.record, signature: sig })
      const actual = encodeSignedRecordBytes(recordBytes, sig)
      expect(Buffer.from(actual).equals(Buffer.from(expected)), vector.id).toBe(true)
      expect(signedRecordSize(recordBytes.length, new TextEncoder().encode(sig).length), vector.id).toBe(expected.length)
    }), { numRuns: 200 })
  })

  it('is |record| + 106 for every valid signature (86 characters)', () => {
    for (const vector of VALID.vectors) {
      const recordBytes = encodeCanonical(vector.signed.record)
      expect(encodeSignedRecord(vector.signed).length, vector.id).toBe(recordBytes.length + 106)
      expect(signedRecordSize(recordBytes.length, 86), vector.id).toBe(recordBytes.length + 106)
    }
  })

  it.each([[0, 1], [23, 1], [24, 2], [255, 2], [256, 3], [65535, 3], [65536, 5]])('a text of %i bytes has a %i-byte header', (length, header) => {
    expect(cborTextHeaderLength(length)).toBe(header)
  })
})

describe('recordBytesIn (the record inside signed bytes, without decoding)', () => {
  it('finds the record bytes in every canonical signed encoding, whatever the signature', () => {
    const signature = fc.oneof(fc.constant('A'.repeat(86)), fc.string({ unit: 'binary', maxLength: 300 }))
    fc.assert(fc.property(fc.constantFrom(...VALID.vectors), signature, (vector, sig) => {
      const recordBytes = encodeCanonical(vector.signed.record)
      const found = recordBytesIn(encodeSignedRecordBytes(recordBytes, sig), sig)
      expect(found === undefined ? undefined : Buffer.from(found).toString('hex'), vector.id).toBe(Buffer.from(recordBytes).toString('hex'))
    }), { numRuns: 200 })
  })

  it('answers as the suffix-building version did, on canonical bytes with any one byte changed', () => {
    const signature = fc.oneof(fc.constant('A'.repeat(86)), fc.string({ unit: 'binary', maxLength: 40 }))
    fc.assert(fc.property(fc.constantFrom(...VALID.vectors), signature, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), (vector, sig, where, value, askOther) => {
      const bytes = Uint8Array.from(encodeSignedRecordBytes(encodeCanonical(vector.signed.record), sig))
      bytes[where % bytes.length] = value
      const asked = askOther ? sig + 'x' : sig
      const found = recordBytesIn(bytes, asked)
      const expected = referenceRecordBytesIn(bytes, asked)
      expect(found === undefined ? undefined : Buffer.from(found).toString('hex')).toBe(expected === undefined ? undefined : Buffer.from(expected).toString('hex'))
    }), { numRuns: 1000 })
  })

  it('refuses bytes signed with another signature, truncated, extended or with another header', () => {
    for (const vector of VALID.vectors) {
      const bytes = encodeSignedRecord(vector.signed)
      const other = (vector.signed.signature.startsWith('A') ? 'B' : 'A') + vector.signed.signature.slice(1)
      expect(recordBytesIn(bytes, other), `${vector.id}: other signature`).toBeUndefined()
      expect(recordBytesIn(bytes.subarray(0, bytes.length - 1), vector.signed.signature), `${vector.id}: truncated`).toBeUndefined()
      expect(recordBytesIn(Uint8Array.from([...bytes, 0]), vector.signed.signature), `${vector.id}: extended`).toBeUndefined()
      const header = Uint8Array.from(bytes)
      header[0] = 0xa3
      expect(recordBytesIn(header, vector.signed.signature), `${vector.id}: map of 3`).toBeUndefined()
      expect(recordBytesIn(new Uint8Array(20), vector.signed.signature), `${vector.id}: too short`).toBeUndefined()
    }
  })
})

/** recordBytesIn as first written: the expected suffix built in full, then compared. */
function referenceRecordBytesIn (signedBytes: Uint8Array, signature: string): Uint8Array | undefined {
  const prefix = Uint8Array.from([0xa2, 0x66, ...new TextEncoder().encode('record')])
  const expectedSuffix = dagCbor.encode({ record: 0, signature }).subarray(prefix.length + 1)
  const suffixAt = signedBytes.length - expectedSuffix.length
  if (suffixAt <= prefix.length) return undefined
  if (!prefix.every((byte, i) => signedBytes[i] === byte)) return undefined
  if (!expectedSuffix.every((byte, i) => signedBytes[suffixAt + i] === byte)) return undefined
  return signedBytes.subarray(prefix.length, suffixAt)
}

/** Every valid vector with the seed of its signer (protocols/vectors/records/valid.json). */
function signVectors (): Array<{ id: string, signed: SignedRecord, cid: string, secretKey: Uint8Array, signedHex?: string }> {
  return (VALID.vectors as Array<typeof VALID.vectors[number] & { signed_cbor_hex?: string }>).map((vector) =>
    ({ ...vector, secretKey: seedOf(vector.signer), ...(vector.signed_cbor_hex === undefined ? {} : { signedHex: vector.signed_cbor_hex }) }))
}

describe('signRecordVerified (a record this node signs and ingests at once)', () => {
  it('encodes once: the vector\'s id, signature and canonical bytes, the bytes marked verified', () => {
    const vectors = signVectors()
    expect(vectors.length).toBeGreaterThan(3)
    for (const vector of vectors) {
      const made = signRecordVerified(vector.signed.record, vector.secretKey)
      expect(made.id, vector.id).toBe(vector.cid)
      expect(made.cid.toString(), vector.id).toBe(vector.cid)
      expect(made.signed, vector.id).toEqual(vector.signed)
      const expected = vector.signedHex === undefined ? Buffer.from(encodeSignedRecord(vector.signed)) : Buffer.from(vector.signedHex, 'hex')
      expect(Buffer.from(made.bytes).equals(expected), `${vector.id}: the vector's signed bytes`).toBe(true)
      expect(verifiedIdOf(made.bytes), vector.id).toBe(made.id)
      expect(verifyRecordBytes(made.bytes, { verifier: nodeCryptoVerifier, now: NOW }).id, vector.id).toBe(made.id)
    }
  })

  it('refuses another key than the signer\'s with KEY_INVALID', () => {
    const [vector] = signVectors()
    if (vector === undefined) throw new Error('no vector')
    expect(() => signRecordVerified(vector.signed.record, new Uint8Array(32).fill(9))).toThrow(expect.objectContaining({ code: 'KEY_INVALID' }))
  })
})
