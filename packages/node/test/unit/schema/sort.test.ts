import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortInPlace } from '../../../src/schema/index.js'

describe('sortInPlace', () => {
  it('gives Array#sort\'s stable order, in place, below and above the insertion threshold', () => {
    const item = fc.record({ key: fc.integer({ min: 0, max: 5 }), tag: fc.nat() })
    fc.assert(fc.property(fc.array(item, { maxLength: 40 }), fc.integer({ min: 0, max: 20 }), (items, insertionMax) => {
      const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key
      const expected = items.slice().sort(byKey) // stable (ECMA-262 since ES2019)
      const list = items.slice()
      const sorted = sortInPlace(list, byKey, insertionMax)
      expect(sorted).toBe(list)
      expect(sorted).toEqual(expected)
    }), { numRuns: 300 })
  })
})
