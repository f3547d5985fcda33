import * as dagCbor from '@ipld/dag-cbor'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  cborTextHeaderLength, encodeCanonical, encodeSignedRecord, encodeSignedRecordBytes, signedRecordSize
} from '../../../src/record/index.js'
import { VALID } from './fixtures.js'

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
