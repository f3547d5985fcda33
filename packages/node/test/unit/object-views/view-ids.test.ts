import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { VIEW_REDUCER, deriveTypedId } from '../../../src/ledger/object-views/index.js'

/*
 * deriveTypedId (src/ledger/ids.ts) against its definition written the plain way (a string,
 * TextEncoder, a base32 loop over a bit string) on any parts: empty ones, non-ASCII text, lone
 * surrogates (UTF-8 writes U+FFFD, 3 bytes, for each) and long parts, in any order of calls.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'

function referenceId (prefix: string, parts: readonly string[]): string {
  const encoder = new TextEncoder()
  let text = `${VIEW_REDUCER}/id`
  for (const part of parts) text += `\0${encoder.encode(part).length}:${part}`
  const bytes = createHash('sha256').update(encoder.encode(text)).digest().subarray(0, 16)
  let bits = ''
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0')
  bits += '0'.repeat((5 - (bits.length % 5)) % 5)
  let out = ''
  for (let i = 0; i < bits.length; i += 5) out += ALPHABET[Number.parseInt(bits.slice(i, i + 5), 2)] ?? ''
  return `${prefix}_${out}`
}

const part = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }), // any code point
  fc.string({ unit: fc.constantFrom('a', 'é', '𝄞', '\uD800', '\uDC00', '\0', ':'), maxLength: 20 }), // lone surrogates, separators
  fc.string({ unit: fc.constantFrom('x', 'ü', '😀'), minLength: 300, maxLength: 900 }) // several KB of UTF-8
)
const prefix = fc.oneof(fc.constantFrom('fac', 'dec', 'com', 'att', 'red'), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 3 }))

describe('deriveTypedId by its definition', () => {
  it('equals the plain definition on any prefix and parts', () => {
    fc.assert(fc.property(prefix, fc.array(part, { maxLength: 6 }), (p, parts) => {
      expect(deriveTypedId(p, parts)).toBe(referenceId(p, parts))
    }), { numRuns: 400 })
  })

  it('a long call then a short one: each id depends on its own parts only', () => {
    const short = deriveTypedId('fac', ['a', 'b'])
    deriveTypedId('fac', ['😀'.repeat(5_000)])
    expect(deriveTypedId('fac', ['a', 'b'])).toBe(short)
    expect(short).toBe(referenceId('fac', ['a', 'b']))
  })
})
