import * as dagCbor from '@ipld/dag-cbor'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeSignedIntoScratch } from '../../../src/fast-crypto/index.js'
import { RECORD_OFFSET } from '../../../src/record/signed-bytes.js'
import { MAX_RECORD_BYTES, type IsnadRecord } from '../../../src/schema/index.js'
import { anyRecord } from '../record/arbitraries.js'
import { VALID } from '../record/fixtures.js'

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b))

describe('encodeSignedIntoScratch (the pipeline\'s canonical encoding)', () => {
  it('writes exactly what @ipld/dag-cbor writes for { record, signature }, on random schema-valid records', () => {
    const signature = fc.oneof(fc.constant('A'.repeat(86)), fc.string({ unit: 'binary', maxLength: 120 }))
    fc.assert(fc.property(anyRecord, signature, (record, sig) => {
      const encoded = encodeSignedIntoScratch(record, sig)
      expect(encoded).toBeDefined()
      if (encoded === undefined) return
      expect(same(encoded.view, dagCbor.encode({ record, signature: sig }))).toBe(true)
      const recordBytes = encoded.view.subarray(RECORD_OFFSET, RECORD_OFFSET + encoded.recordLength)
      expect(same(recordBytes, dagCbor.encode(record))).toBe(true)
    }), { numRuns: 500 })
  })

  it('writes the bytes of every valid vector', () => {
    for (const vector of VALID.vectors) {
      const encoded = encodeSignedIntoScratch(vector.signed.record, vector.signed.signature)
      expect(encoded !== undefined && same(encoded.view, dagCbor.encode(vector.signed)), vector.id).toBe(true)
    }
  })

  it('declines what DAG-CBOR refuses and what exceeds the record limit, leaving those to the general path', () => {
    const [vector] = VALID.vectors
    if (vector === undefined) throw new Error('no vectors')
    const { record, signature } = vector.signed
    const withUndefined = { ...record, notes: undefined } as unknown as IsnadRecord
    expect(encodeSignedIntoScratch(withUndefined, signature)).toBeUndefined()
    expect(encodeSignedIntoScratch({ ...record, version: Number.NaN } as unknown as IsnadRecord, signature)).toBeUndefined()
    const huge = { ...record, padding: 'x'.repeat(MAX_RECORD_BYTES) } as unknown as IsnadRecord
    expect(encodeSignedIntoScratch(huge, signature)).toBeUndefined()
    // Room for the record but not the signature after it.
    const recordBytes = dagCbor.encode(record).length
    const nearLimit = { ...record, padding: 'x'.repeat(MAX_RECORD_BYTES - RECORD_OFFSET - recordBytes - 30) } as unknown as IsnadRecord
    expect(encodeSignedIntoScratch(nearLimit, signature)).toBeUndefined()
    // The buffer is reused: a call after a declined one still writes the right bytes.
    const again = encodeSignedIntoScratch(record, signature)
    expect(again !== undefined && same(again.view, dagCbor.encode(vector.signed))).toBe(true)
  })
})
