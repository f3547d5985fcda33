import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalCopy, sortedPlainCopy } from '../../../src/ledger/canonical-copy.js'
import { canonicalJson } from '../../../src/ledger/index.js'
import { decodeSignedRecord, encodeSignedRecord } from '../../../src/record/index.js'
import { recordEventOf } from '../../../src/node/journal/record-events.js'
import { createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'

/** What the generic serialiser says: its text, or that it refuses the value. */
function generic (value: unknown): string | 'refused' {
  try {
    return canonicalize(value) ?? 'refused'
  } catch {
    return 'refused'
  }
}

/** The fast path's promise: when it answers, the text is canonicalize's and the copy is JSON.parse of it. */
function expectSameAsGeneric (value: unknown): boolean {
  const fast = canonicalCopy(value)
  if (fast === undefined) return false
  expect(fast.text).toBe(generic(value))
  // Same members in the same order, the same types (no -0, no undefined): what a reader parses.
  expect(fast.copy).toStrictEqual(JSON.parse(fast.text))
  expect(Object.is(fast.copy, value) && typeof value === 'object' && value !== null).toBe(false)
  return true
}

/** A member name the fast path leaves to canonicalize: one V8 would enumerate out of order, or `__proto__`. */
function hasKeyDeclined (value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some(hasKeyDeclined)
  return Object.entries(value).some(([k, v]) => /^\d/.test(k) || k === '__proto__' || hasKeyDeclined(v))
}

/** JSON values as a file holds them, with keys that stress ordering: UTF-16 order vs code points, digits, escapes. */
const key = fc.oneof(fc.string(), fc.constantFrom('a', 'b', 'B', '\u00e9', '\ud83d\ude00', '\ufb33', '10', '9', '-1', '__proto__', 'toJSON', 'hash', ''))
const jsonLike = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6 })
})).value

describe('canonicalCopy: the same bytes as canonicalize (RFC 8785)', () => {
  it('agrees with canonicalize on JSON values, and takes the fast path for those without reordered keys (property)', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const stored = JSON.parse(JSON.stringify(value)) as unknown
      const taken = expectSameAsGeneric(stored)
      if (!hasKeyDeclined(stored)) expect(taken).toBe(true)
    }), { numRuns: 1000 })
  })

  it('agrees with canonicalize, or declines, on values built in code: doubles, -0, keys out of order (property)', () => {
    fc.assert(fc.property(jsonLike, (value) => { expectSameAsGeneric(value) }), { numRuns: 1000 })
  })

  it('declines anything but plain data, which canonicalJson then serialises or refuses exactly as canonicalize does (property)', () => {
    const anything = fc.anything({ withBoxedValues: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true, withBigInt: true, withUnicodeString: true, maxDepth: 3 })
    fc.assert(fc.property(anything, (value) => {
      expectSameAsGeneric(value)
      const expected = generic(value)
      let got: string
      try {
        got = canonicalJson(value)
      } catch {
        got = 'refused'
      }
      expect(got).toBe(expected)
    }), { numRuns: 1000 })
  })

  it('declines the cases JSON.stringify would get wrong or a copy would not reproduce', () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = cycle
    let deep: unknown = 'leaf'
    for (let i = 0; i < 100; i++) deep = { d: deep }
    for (const [i, value] of [
      { 10: 'x', 9: 'y' }, // V8 enumerates integer keys first: "10" < "9" in JCS
      JSON.parse('{"__proto__":1}'), { z: -0 }, [-0], { s: 'a\ud800' }, { ['\udc00']: 1 },
      { at: new Date(0) }, { gone: undefined }, [undefined], { n: Number.NaN }, { n: Number.POSITIVE_INFINITY },
      { b: 1n }, { toJSON: () => 'x' }, new Map(), Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }), cycle, deep
    ].entries()) expect(canonicalCopy(value), `case ${i}`).toBeUndefined()
    const throwing = { get x (): never { throw new Error('getter') } }
    expect(canonicalCopy(throwing)).toBeUndefined()
    expect(() => canonicalJson(throwing)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }) as Error)
    expect(canonicalJson({ 10: 'x', 9: 'y' })).toBe('{"10":"x","9":"y"}')
    expect(canonicalJson({ z: -0, at: new Date(0), gone: undefined })).toBe('{"at":"1970-01-01T00:00:00.000Z","z":0}')
  })

  it('takes the fast path for every kind of record event payload, as decoded from the wire', () => {
    const author = createAgent(1)
    const witness = createAgent(2)
    const memory = createMemory(author)
    for (const stored of [memory, createAttestation(witness, memory.id), createAnchor(author, memory.id), createWitnessRequest(author, memory.id, [witness])]) {
      const decoded = { id: stored.id, signed: decodeSignedRecord(encodeSignedRecord(stored.signed)) }
      expect(expectSameAsGeneric(recordEventOf(decoded, 'sync').payload), stored.signed.record.kind).toBe(true)
    }
  })

  it('sorts members in any insertion order, by insertion below 33 members and by Array.prototype.sort above (property)', () => {
    // Names that differ in UTF-16 order from code point order and share prefixes; no digits first (declined).
    const name = fc.oneof(fc.string({ minLength: 1, maxLength: 4 }).map((k) => `k${k}`), fc.constantFrom('a', 'ab', 'B', '\u00e9', '\ud83d\ude00', '\ufb33', 'hash', '_'))
    fc.assert(fc.property(fc.uniqueArray(name, { maxLength: 80 }), fc.integer(), (names, seed) => {
      const value: Record<string, unknown> = {}
      for (const [i, n] of names.entries()) value[n] = (seed + i) % 7 === 0 ? { [n]: i, z: [n], a: null } : i
      expect(expectSameAsGeneric(value)).toBe(true)
      expect(Object.keys(sortedPlainCopy(value) as object)).toEqual([...names].sort())
    }), { numRuns: 500 })
  })

  it('sortedPlainCopy is the copy canonicalCopy returns, and declines what it declines', () => {
    fc.assert(fc.property(jsonLike, (value) => {
      const full = canonicalCopy(value)
      const copy = sortedPlainCopy(value)
      expect(copy).toStrictEqual(full?.copy)
      if (copy !== undefined) expect(JSON.stringify(copy)).toBe(full?.text)
    }), { numRuns: 500 })
  })
})
