import fc from 'fast-check'
import { CID } from 'multiformats/cid'
import { base58btc } from 'multiformats/bases/base58'
import * as Digest from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import {
  boundedText, hasForbiddenText, isCalendarInstant, isCanonicalCidV1, isIsoTimestamp, isoTimestamp, isRecordCid, RECORD_CID_PATTERN, TIMESTAMP_PATTERN,
  utf8Length
} from '../../../src/schema/index.js'

const encoder = new TextEncoder()

describe('utf8Length', () => {
  it('equals TextEncoder on every string, lone surrogates included', () => {
    const unit = fc.oneof(fc.constantFrom('\ud800', '\udfff', '\udbff\udc00', '\u07ff', '\u0800', '\uffff'), fc.string({ unit: 'binary', maxLength: 4 }))
    fc.assert(fc.property(fc.array(unit, { maxLength: 20 }), (parts) => {
      const value = parts.join('')
      expect(utf8Length(value)).toBe(encoder.encode(value).length)
    }), { numRuns: 2000 })
  })
})

describe('hasForbiddenText (record-v1 R3)', () => {
  // The rule as it was written before: u-flag patterns, whose surrogate class matches only unpaired ones.
  const CONTROL_OR_LONE_SURROGATE = /[\u0000-\u001F\u007F]|[\uD800-\uDFFF]/u
  const CONTROL_EXCEPT_NEWLINES_OR_LONE_SURROGATE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDFFF]/u

  it('matches exactly what the u-flag patterns match, with and without newlines allowed', () => {
    const unit = fc.oneof(
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\t', '\n', '\r', '\u000b', '\u001f', '\u007f', '\u0080', ' ', 'a', 'é'),
      fc.string({ unit: 'binary', maxLength: 3 })
    )
    fc.assert(fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
      const value = parts.join('')
      expect(hasForbiddenText(value, false), JSON.stringify(value)).toBe(CONTROL_OR_LONE_SURROGATE.test(value))
      expect(hasForbiddenText(value, true), JSON.stringify(value)).toBe(CONTROL_EXCEPT_NEWLINES_OR_LONE_SURROGATE.test(value))
    }), { numRuns: 5000 })
  })

  it('applies to every code unit', () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      const value = `a${String.fromCharCode(unit)}b`
      expect(hasForbiddenText(value, false)).toBe(CONTROL_OR_LONE_SURROGATE.test(value))
      expect(hasForbiddenText(value, true)).toBe(CONTROL_EXCEPT_NEWLINES_OR_LONE_SURROGATE.test(value))
    }
  })
})

/** The previous implementation: Date.parse plus a round trip, kept as the reference. */
function referenceIsIsoTimestamp (value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z$/.exec(value)
  if (match === null) return false
  const millis = Date.parse(value)
  if (Number.isNaN(millis)) return false
  return new Date(millis).toISOString().slice(0, 19) === value.slice(0, 19)
}

/** The calendar check as it was before isCalendarInstant: through the pattern's captures. */
function captureIsIsoTimestamp (value: string): boolean {
  const match = TIMESTAMP_PATTERN.exec(value)
  if (match === null) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
  return month >= 1 && month <= 12 && day >= 1 && day <= days &&
    Number(match[4]) <= 23 && Number(match[5]) <= 59 && Number(match[6]) <= 59
}

describe('isIsoTimestamp (record-v1 R5)', () => {
  it('agrees with a Date.parse round trip on near-valid timestamps', () => {
    const two = (max: number): fc.Arbitrary<string> => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    const stamp = fc.tuple(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')), two(13), two(32), two(25), two(61), two(61),
      fc.constantFrom('', '.000', '.999', '.5')
    ).map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}Z`)
    fc.assert(fc.property(stamp, (value) => {
      expect(isIsoTimestamp(value), value).toBe(referenceIsIsoTimestamp(value))
    }), { numRuns: 5000 })
  })

  it('accepts every instant written by toISOString, with and without milliseconds', () => {
    const date = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
    fc.assert(fc.property(date, (d) => {
      const iso = d.toISOString()
      expect(isIsoTimestamp(iso), iso).toBe(true)
      expect(isIsoTimestamp(iso.slice(0, 19) + 'Z'), iso).toBe(true)
    }))
  })

  it('isCalendarInstant, the schema\'s check after the pattern, agrees with the capture-based check on every string the pattern admits', () => {
    const digits = (n: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n })
    const stamp = fc.tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), fc.constantFrom('', '.000', '.999'))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}Z`)
    fc.assert(fc.property(stamp, (value) => {
      expect(TIMESTAMP_PATTERN.test(value)).toBe(true)
      expect(isCalendarInstant(value), value).toBe(captureIsIsoTimestamp(value))
    }), { numRuns: 5000 })
  })

  it('the isoTimestamp schema accepts exactly what isIsoTimestamp accepts', () => {
    const near = fc.tuple(fc.date({ noInvalidDate: true }), fc.string({ maxLength: 3 }), fc.nat({ max: 24 }))
      .map(([d, junk, at]) => { const iso = d.toISOString(); return iso.slice(0, at) + junk + iso.slice(at) })
    fc.assert(fc.property(fc.oneof(near, fc.string({ maxLength: 30 })), (value) => {
      expect(isoTimestamp.safeParse(value).success, value).toBe(isIsoTimestamp(value))
    }), { numRuns: 3000 })
  })

  it.each([
    ['2024-02-29T00:00:00Z', true], ['2000-02-29T00:00:00Z', true], ['1900-02-29T00:00:00Z', false],
    ['2026-02-30T00:00:00Z', false], ['2026-04-31T00:00:00Z', false], ['2026-02-05T16:00:00', false],
    ['2026-02-05T24:00:00Z', false], ['2026-02-05T23:59:60Z', false], ['2026-00-10T00:00:00Z', false],
    ['2026-02-05T16:00:00.12Z', false], ['+02026-02-05T16:00:00Z', false]
  ])('%s → %s', (value, expected) => {
    expect(isIsoTimestamp(value)).toBe(expected)
  })
})

/** The previous recordCid check, plus the full-length digest the pattern also requires. */
function referenceIsRecordCid (value: string): boolean {
  if (!isCanonicalCidV1(value, 0x71)) return false
  const { multihash } = CID.parse(value)
  return multihash.code === 0x12 && multihash.size === 32
}

describe('RECORD_CID_PATTERN (record-v1 R6)', () => {
  const cidArb = fc.record({
    codec: fc.constantFrom(0x71, 0x55, 0x70, 0x0129),
    hash: fc.constantFrom(0x12, 0x13, 0x00),
    digest: fc.uint8Array({ minLength: 0, maxLength: 40 }),
    size: fc.constantFrom(32, 32, 32, 16, 20)
  }).map(({ codec, hash, digest, size }) => {
    const bytes = new Uint8Array(size)
    bytes.set(digest.subarray(0, size))
    return CID.createV1(codec, Digest.create(hash, bytes))
  })

  it('agrees with multiformats on CIDs of many codecs, hashes and digest sizes', () => {
    fc.assert(fc.property(cidArb, (cid) => {
      for (const text of [cid.toString(), cid.toString(base58btc), cid.toString().toUpperCase()]) {
        expect(isRecordCid(text), text).toBe(referenceIsRecordCid(text))
      }
    }), { numRuns: 2000 })
  })

  it('agrees with multiformats on record CIDs with one character changed', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567AZ019'
    const mutated = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(), fc.integer({ min: 0, max: alphabet.length - 1 }))
      .map(([digest, at, char]) => {
        const text = CID.createV1(0x71, Digest.create(0x12, digest)).toString()
        const i = at % text.length
        return text.slice(0, i) + alphabet[char] + text.slice(i + 1)
      })
    fc.assert(fc.property(mutated, (text) => {
      expect(isRecordCid(text), text).toBe(referenceIsRecordCid(text))
    }), { numRuns: 3000 })
  })

  it('is the pattern JSON Schema publishes', () => {
    expect(RECORD_CID_PATTERN.source).toBe('^bafyrei[a-h][a-z2-7]{50}[aeimquy4]$')
  })
})

describe('boundedText (record-v1 R3, R8)', () => {
  const text = boundedText(8, { min: 1 })
  const multiline = boundedText(8, { allowNewlines: true })

  it.each([
    ['12345678', true], ['123456789', false], ['éééé', true], ['ééééa', false], ['𝄞𝄞', true], ['𝄞𝄞a', false],
    ['', false], ['a\u0007', false], ['a\nb', false], ['a\ud800', false], ['\udc00a', false]
  ])('one line, 1–8 bytes: %j → %s', (value, ok) => {
    expect(text.safeParse(value).success).toBe(ok)
  })

  it.each([['a\nb\r\n\tc', true], ['a\u000bb', false], ['a\u007f', false], ['\ud83e', false]])('multi-line: %j → %s', (value, ok) => {
    expect(multiline.safeParse(value).success).toBe(ok)
  })
})
