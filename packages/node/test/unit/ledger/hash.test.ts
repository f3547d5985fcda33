import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { canonicalJson, hashLine, verifyCanonicalLineText, verifyLineHash, withLineHash } from '../../../src/ledger/index.js'
import fc from 'fast-check'

/** RFC 8785 §3.2.2: the input object and its canonical form. */
const RFC8785_INPUT = {
  numbers: [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  string: '€$\u000f\nA\'B"\\\\"/',
  literals: [null, true, false]
}
const RFC8785_CANONICAL = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'

/** Hashes computed outside this code base (python3 hashlib over the UTF-8 canonical text). */
const VECTORS = [
  { id: 'rfc8785-3.2.2', value: RFC8785_INPUT, canonical: RFC8785_CANONICAL, hash: 'sha256:2d5e01a318d0f0879ab568c4be289c8b1f64ef8921a53c6277d5e069978baacb' },
  { id: 'sorted-members-utf8', value: { c: 'é', b: [true, null], a: 1 }, canonical: '{"a":1,"b":[true,null],"c":"é"}', hash: 'sha256:6552078c5985b474977dfa39ded9c6c8ee6cd5b7c033f4ea9c259b5c3be7e107' }
]

describe('line hashing (spec §8)', () => {
  for (const v of VECTORS) {
    it(`canonicalises and hashes vector ${v.id}`, () => {
      expect(canonicalJson(v.value), v.id).toBe(v.canonical)
      expect(hashLine(v.value), v.id).toBe(v.hash)
      expect(hashLine(v.value), v.id).toBe('sha256:' + createHash('sha256').update(v.canonical, 'utf8').digest('hex'))
      // the line's own hash member never enters its hash
      expect(hashLine({ ...v.value, hash: 'sha256:whatever' }), v.id).toBe(v.hash)
    })
  }

  it('verifies a hashed line and refuses any change to it', () => {
    const line = withLineHash({ kind: 'seen', n: 1, nested: { list: [1, 2, 3] } })
    expect(verifyLineHash(line)).toBe(true)
    expect(verifyLineHash(JSON.parse(JSON.stringify(line)))).toBe(true)
    expect(verifyLineHash({ ...line, n: 2 })).toBe(false)
    expect(verifyLineHash({ ...line, nested: { list: [1, 2] } })).toBe(false)
    expect(verifyLineHash({ ...line, extra: true })).toBe(false)
    expect(verifyLineHash({ ...line, hash: line.hash.toUpperCase() })).toBe(false)
  })

  it('does not depend on member order or whitespace of the stored line', () => {
    const line = withLineHash({ b: 2, a: 1 })
    const reordered = JSON.parse(`{ "hash": "${line.hash}", "a": 1,   "b": 2 }`) as unknown
    expect(verifyLineHash(reordered)).toBe(true)
  })

  it('returns false, never throws, for things that are not hashed lines', () => {
    for (const value of [null, 1, 'x', [], {}, { hash: 1 }, { hash: 'sha256:00' }]) expect(verifyLineHash(value)).toBe(false)
  })

  it('refuses values JSON cannot carry with SCHEMA_INVALID', () => {
    for (const bad of [{ x: Number.NaN }, { x: Number.POSITIVE_INFINITY }, { x: '\ud800' }, { x: 1n }]) {
      let error: unknown
      try {
        hashLine(bad)
      } catch (err) {
        error = err
      }
      expect(isIsnadError(error, 'SCHEMA_INVALID')).toBe(true)
    }
  })
})

describe('the fast path for lines as the ledger writes them', () => {
  /** The writer's form: canonical JSON of the payload, then `"hash"` as the last member. */
  const written = (payload: Record<string, unknown>): string => canonicalJson(payload).slice(0, -1) + `,"hash":"${hashLine(payload)}"}`

  it('accepts exactly what verifyLineHash accepts, on written lines and on any mutation of them', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0 && !('hash' in v))
    fc.assert(fc.property(json, fc.nat(), fc.integer({ min: 0, max: 0x7f }), (value, at, char) => {
      const payload = value as Record<string, unknown>
      const line = written(payload)
      // Integer-like member names come first in JS objects whatever the text's order, so for those
      // the fast path declines and the full check decides; all other written lines take it.
      if (!/"\d+":/.test(line)) expect(verifyCanonicalLineText(line, JSON.parse(line))).toBe(true)
      expect(verifyLineHash(JSON.parse(line))).toBe(true)
      const i = at % line.length
      const mutated = line.slice(0, i) + String.fromCharCode(char) + line.slice(i + 1)
      let parsed: unknown
      try { parsed = JSON.parse(mutated) } catch { return }
      // Sound: never true where the full RFC 8785 check says no.
      if (verifyCanonicalLineText(mutated, parsed)) expect(verifyLineHash(parsed)).toBe(true)
    }), { numRuns: 2000 })
  })

  it('declines only real surrogate escapes, not an escaped backslash followed by the letters ud8', () => {
    // fast-check's counterexample: the member name is backslash + "Ud8", written as "\\Ud8".
    for (const payload of [{ '\\Ud8': {} }, { '\\ud800': 1 }, { a: '\\\\udfff' }]) {
      expect(verifyCanonicalLineText(written(payload), JSON.parse(written(payload))), JSON.stringify(payload)).toBe(true)
    }
    // Lone surrogates have no canonical form (RFC 8785 §3.2.2.2): lines whose hash is right over
    // their text, as JSON.stringify writes it, go to the full check, which refuses them.
    for (const payloadText of ['{"a":"\\ud800"}', '{"a":"\\\\\\udc00"}']) {
      const line = payloadText.slice(0, -1) + `,"hash":"sha256:${createHash('sha256').update(payloadText, 'utf8').digest('hex')}"}`
      expect(verifyCanonicalLineText(line, JSON.parse(line)), line).toBe(false)
      expect(verifyLineHash(JSON.parse(line))).toBe(false)
    }
  })

  it('declines (leaving it to the full check) a valid line that is not in canonical member order', () => {
    const payload = { b: 1, a: 2 }
    const line = `{"b":1,"a":2,"hash":"${hashLine(payload)}"}`
    expect(verifyCanonicalLineText(line, JSON.parse(line))).toBe(false)
    expect(verifyLineHash(JSON.parse(line))).toBe(true)
  })
})
