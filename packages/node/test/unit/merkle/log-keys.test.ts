import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { columnKey, decodeLeafIndexes, decodeUint64, encodeLeafIndexes, encodeUint64 } from '../../../src/merkle/log-keys.js'

/** The reference: 8 bytes big-endian through DataView's 64-bit setter. */
function referenceUint64 (value: number): Uint8Array {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value))
  return bytes
}

describe('log sizes and leaf indexes as 8 bytes big-endian (transparency-v1 §3)', () => {
  it('encodes like DataView.setBigUint64 and decodes back (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.integer({ min: 0, max: 2 ** 32 + 5 }), fc.maxSafeNat()), (value) => {
      expect(encodeUint64(value)).toEqual(referenceUint64(value))
      expect(decodeUint64(encodeUint64(value))).toBe(value)
    }), { numRuns: 2000 })
  })

  it('encodes the edges', () => {
    expect([...encodeUint64(0)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect([...encodeUint64(2 ** 32 - 1)]).toEqual([0, 0, 0, 0, 255, 255, 255, 255])
    expect([...encodeUint64(2 ** 32)]).toEqual([0, 0, 0, 1, 0, 0, 0, 0])
    expect([...encodeUint64(Number.MAX_SAFE_INTEGER)]).toEqual([0, 0x1f, 255, 255, 255, 255, 255, 255])
  })
})

describe('index layout 7: leaf index lists and column keys (log-keys.ts)', () => {
  it('writes a list of leaf indexes as length-prefixed big-endian numbers and reads it back (property)', () => {
    fc.assert(fc.property(fc.array(fc.maxSafeNat(), { minLength: 1, maxLength: 5 }), (indexes) => {
      expect(decodeLeafIndexes(encodeLeafIndexes(indexes))).toEqual(indexes)
    }))
    expect([...encodeLeafIndexes([0, 300])]).toEqual([1, 0, 2, 1, 44])
    for (const bad of [[], [0], [2, 1], [9, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 5, 3]]) expect(decodeLeafIndexes(Uint8Array.from(bad)), String(bad)).toBeUndefined()
  })

  it('gives columns keys that sort in leaf order (property)', () => {
    fc.assert(fc.property(fc.maxSafeNat(), fc.maxSafeNat(), (a, b) => {
      expect(columnKey(a) < columnKey(b)).toBe(a < b)
    }))
  })
})
