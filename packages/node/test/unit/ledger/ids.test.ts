import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ID_PREFIXES, typedId, type IdKind } from '../../../src/schema/ledger-lines.js'
import { derivedId, encodeBase32, eventIdFor, isTypedId, randomId } from '../../../src/ledger/index.js'

/** RFC 4648 §10 test vectors, lower-case and without padding (spec §7 ids). */
const BASE32_VECTORS: Array<[string, string]> = [
  ['', ''], ['f', 'my'], ['fo', 'mzxq'], ['foo', 'mzxw6'], ['foob', 'mzxw6yq'], ['fooba', 'mzxw6ytb'], ['foobar', 'mzxw6ytboi']
]

function counter (): (n: number) => Uint8Array {
  let next = 0
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff)
}

describe('typed ids (spec §7)', () => {
  for (const [input, output] of BASE32_VECTORS) {
    it(`base32 of "${input}"`, () => { expect(encodeBase32(new TextEncoder().encode(input))).toBe(output) })
  }

  it('encodes 16 bytes as 26 characters (checked against python base64.b32encode)', () => {
    expect(encodeBase32(Uint8Array.from({ length: 16 }, (_, i) => i))).toBe('aaaqeayeaudaocajbifqydiob4')
    expect(encodeBase32(new Uint8Array(16).fill(0xff))).toBe('77777777777777777777777774')
  })

  for (const kind of Object.keys(ID_PREFIXES) as IdKind[]) {
    it(`makes ${kind} ids of the schema's form`, () => {
      const id = randomId(kind, counter())
      expect(typedId(ID_PREFIXES[kind]).safeParse(id).success, id).toBe(true)
      expect(isTypedId(kind, id)).toBe(true)
    })
  }

  it('takes its randomness from the caller', () => {
    expect(randomId('run', counter())).toBe('run_aaaqeayeaudaocajbifqydiob4')
    expect(randomId('run', counter())).toBe(randomId('run', counter()))
    expect(() => randomId('run', () => new Uint8Array(4))).toThrow(RangeError)
  })

  it('derives the same event id for the same logical event, a different one otherwise', () => {
    const id = eventIdFor('default', 'memory.captured:bafy1')
    expect(isTypedId('event', id)).toBe(true)
    expect(eventIdFor('default', 'memory.captured:bafy1')).toBe(id)
    expect(eventIdFor('default', 'memory.captured:bafy2')).not.toBe(id)
    expect(eventIdFor('other', 'memory.captured:bafy1')).not.toBe(id)
  })

  it('length-prefixes derived parts so different splits never collide', () => {
    expect(derivedId('finding', 'd', ['a:b'])).not.toBe(derivedId('finding', 'd', ['a', 'b']))
    expect(derivedId('finding', 'd', ['ab', ''])).not.toBe(derivedId('finding', 'd', ['a', 'b']))
    expect(derivedId('finding', 'd1', ['a'])).not.toBe(derivedId('finding', 'd2', ['a']))
  })
})

describe('typed ids give the bytes of the plain definitions', () => {
  /** RFC 4648 §6 base32 as first written: a string built character by character. */
  function referenceBase32 (bytes: Uint8Array): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
    let bits = ''
    for (const byte of bytes) bits += byte.toString(2).padStart(8, '0')
    let out = ''
    for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)] as string
    return out
  }

  /** derivedId by its definition: SHA-256 of the length-prefixed text, first ID_BYTES bytes in base32. */
  function referenceDerivedId (kind: IdKind, domain: string, parts: readonly string[]): string {
    let input = `${domain}\0`
    for (const part of parts) input += `${Buffer.byteLength(part, 'utf8')}:${part}\0`
    return `${ID_PREFIXES[kind]}_${referenceBase32(createHash('sha256').update(input, 'utf8').digest().subarray(0, 16))}`
  }

  it('encodeBase32 agrees with a bit-string reference on any bytes (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => { expect(encodeBase32(bytes)).toBe(referenceBase32(bytes)) }), { numRuns: 500 })
  })

  it('derivedId agrees with its definition: any text, lone surrogates, long parts (property)', () => {
    const part = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom('', '\ud800', 'a\udc00b', 'x'.repeat(700), '\u00e9'.repeat(1000), '\ud83d\ude00'.repeat(400)))
    const kinds = Object.keys(ID_PREFIXES) as IdKind[]
    fc.assert(fc.property(fc.constantFrom(...kinds), fc.oneof(fc.string(), fc.constant('isnad/event-id/v1')), fc.array(part, { maxLength: 4 }), (kind, domain, parts) => {
      expect(derivedId(kind, domain, parts)).toBe(referenceDerivedId(kind, domain, parts))
    }), { numRuns: 1000 })
    // Every length of a decimal prefix, and the same length twice.
    for (const n of [0, 9, 10, 99, 100, 999, 1000]) {
      expect(derivedId('event', 'd', ['y'.repeat(n)])).toBe(referenceDerivedId('event', 'd', ['y'.repeat(n)]))
      expect(derivedId('event', 'd', ['z'.repeat(n)])).toBe(referenceDerivedId('event', 'd', ['z'.repeat(n)]))
    }
    expect(eventIdFor('default', 'k')).toBe(referenceDerivedId('event', 'isnad/event-id/v1', ['default', 'k']))
    // As written to a ledger by the build before these encoders (a2f8b13).
    expect(eventIdFor('default', 'memory.captured:bafyreiaap4xbpzuuysdkptdenidw4csssxxypuubxgw7zmqahgratyf35e')).toBe('evt_ipxmtbnsibpeuzdsgocqw4k3ma')
  })
})
