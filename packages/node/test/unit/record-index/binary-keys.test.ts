import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cidString, cidOfBytes } from '../../../src/record/index.js'
import { isRecordCid } from '../../../src/schema/index.js'
import { ID_BYTES, idKeyOf, idOfKey, lookupKey, prefixEnd, uintKey, uintOfKey, utf8Key } from '../../../src/record-index/level/binary-keys.js'

/*
 * Layout 7's binary keys (src/record-index/level/binary-keys.ts): a record id packed into 32 bytes that
 * sort as its text does, and back; numbers big-endian; text as UTF-8 bytes.
 */

const idOf = (bytes: Uint8Array): string => cidString(cidOfBytes(bytes))
const ids = fc.uint8Array({ minLength: 0, maxLength: 64 }).map(idOf)

describe('record ids as 32-byte keys', () => {
  it('packs an id into ID_BYTES one-byte characters and unpacks it exactly', () => {
    fc.assert(fc.property(ids, (id) => {
      const key = idKeyOf(id)
      expect(key).toBeDefined()
      expect(key?.length).toBe(ID_BYTES)
      for (let i = 0; i < ID_BYTES; i++) expect(key?.charCodeAt(i)).toBeLessThan(256)
      expect(idOfKey(`xy${key ?? ''}`, 2)).toBe(id)
    }))
  })

  it('keeps the order of the ids as text (the accessors\' id order, the query tie-break)', () => {
    fc.assert(fc.property(ids, ids, (a, b) => {
      const [ka, kb] = [idKeyOf(a) as string, idKeyOf(b) as string]
      expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(Math.sign(a < b ? -1 : a > b ? 1 : 0))
    }))
  })

  it('names nothing for a string that is no record id', () => {
    for (const bad of ['', 'x', 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', idOf(Uint8Array.of(1)).toUpperCase()]) {
      expect(idKeyOf(bad), bad).toBeUndefined()
      expect(lookupKey(bad), bad).toBe('')
    }
  })

  it('packs exactly the strings that are record ids (isRecordCid), checked character by character', () => {
    // An id with one character replaced by any code unit (out of the position's alphabet, non-ASCII, above 0xff) or cut short.
    const altered = fc.tuple(ids, fc.nat(60), fc.integer({ min: 0, max: 0xffff }), fc.boolean()).map(([id, at, code, cut]) =>
      cut ? id.slice(0, at) : id.slice(0, at) + String.fromCharCode(code) + id.slice(at + 1))
    fc.assert(fc.property(altered, (text) => {
      expect(idKeyOf(text) !== undefined, text).toBe(isRecordCid(text))
    }), { numRuns: 2000 })
  })
})

describe('numbers and text in keys', () => {
  it('writes numbers big-endian, so byte order is numeric order', () => {
    fc.assert(fc.property(fc.nat({ max: 2 ** 53 - 1 }), fc.nat({ max: 2 ** 53 - 1 }), (a, b) => {
      const [ka, kb] = [uintKey(a, 7), uintKey(b, 7)]
      expect(uintOfKey(`!${ka}`, 1, 7)).toBe(a)
      expect(ka < kb).toBe(a < b)
    }))
    expect(uintKey(258, 2)).toBe('\x01\x02')
  })

  it('keeps ASCII as it is and writes other text as its UTF-8 bytes', () => {
    expect(utf8Key('rust')).toBe('rust')
    expect(utf8Key('é')).toBe('\xc3\xa9')
    expect(utf8Key('日本')).not.toBe(utf8Key('本日'))
  })

  it('ends a prefix range at the next prefix', () => {
    expect(prefixEnd('a')).toBe('b')
    expect(prefixEnd('a\xff')).toBe('b')
    expect(() => prefixEnd('\xff')).toThrow()
  })
})
