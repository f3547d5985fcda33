import { describe, expect, it } from 'vitest'
import { ID_PREFIXES, typedId, type IdKind } from '../../../src/schema/ledger.js'
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
