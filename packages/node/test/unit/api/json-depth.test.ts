import { describe, expect, it } from 'vitest'
import { jsonDepthOf } from '../../../src/http/body.js'

/* The byte scan that bounds a body's nesting before JSON.parse, on vectors. */

const enc = (text: string): Uint8Array => new TextEncoder().encode(text)

const VECTORS: Array<[id: string, text: string, depth: number]> = [
  ['scalar', '42', 0],
  ['string', '"[[[{"', 0],
  ['empty object', '{}', 1],
  ['flat array', '[1,2,3]', 1],
  ['nested', '{"a":[{"b":[1]}]}', 4],
  ['siblings do not add', '[[1],[2],[[3]]]', 3],
  ['brackets in strings are text', '{"a":"]]]]","b":["[[[["]}', 2],
  ['escaped quote keeps the string open', '["\\"[[[[", [1]]', 2],
  ['escaped backslash closes it', '["\\\\", [[1]]]', 3],
  ['multi-byte text', '{"ü€😀":["[]"]}', 2],
  ['unbalanced closers do not go negative', ']]]][[', 2]
]

describe('jsonDepthOf', () => {
  it('measures nesting outside strings', () => {
    for (const [id, text, depth] of VECTORS) expect(jsonDepthOf(enc(text)), id).toBe(depth)
  })

  it('agrees with the parsed value\'s depth on generated documents', () => {
    const depthOf = (value: unknown): number => typeof value === 'object' && value !== null
      ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
      : 0
    for (let n = 0; n < 50; n++) {
      let value: unknown = `leaf ${n} "[{"`
      for (let i = 0; i < n; i++) value = i % 2 === 0 ? [value, i] : { [`k${i}`]: value, s: '}]' }
      expect(jsonDepthOf(enc(JSON.stringify(value))), `depth ${n}`).toBe(depthOf(value))
    }
  })

  it('stops as soon as the limit is passed', () => {
    const hostile = enc('['.repeat(5_000_000))
    expect(jsonDepthOf(hostile, 32)).toBe(33)
  })
})
