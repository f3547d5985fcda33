import * as dagCbor from '@ipld/dag-cbor'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  decodeReceivedRecord, decodeSignedRecord, encodeCanonical, encodeSignedRecord, signRecord
} from '../../../src/record/index.js'
import { decodeCanonicalCbor } from '../../../src/record/canonical-cbor.js'
import { anyRecord, secretKeyOf } from './arbitraries.js'

/*
 * decodeCanonicalCbor (src/record/canonical-cbor.ts) may answer only where the general path
 * (dagCbor.decode, then dagCbor.encode and a byte comparison) would say "canonical", with the value
 * dagCbor.decode gives; everywhere else it must give undefined and leave the verdict to that path.
 */

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'))
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b))

/** What the general path says of `bytes`: the decoded value when they are canonical, else undefined. */
function generalVerdict (bytes: Uint8Array): { canonical: boolean, value?: unknown } {
  let value: unknown
  try {
    value = dagCbor.decode(bytes)
  } catch {
    return { canonical: false }
  }
  try {
    return { canonical: sameBytes(dagCbor.encode(value), bytes), value }
  } catch {
    return { canonical: false }
  }
}

/** Asserts the soundness rule on `bytes`: an answer only where the general path says canonical, and the same value. */
function expectSound (bytes: Uint8Array): unknown {
  const fast = decodeCanonicalCbor(bytes)
  if (fast === undefined) return undefined
  const general = generalVerdict(bytes)
  expect(general.canonical, Buffer.from(bytes).toString('hex')).toBe(true)
  expect(fast).toStrictEqual(general.value)
  expect(sameBytes(dagCbor.encode(fast), bytes)).toBe(true)
  return fast
}

/** Plain data of the kinds records hold: text keys, text, safe integers, non-integral doubles, booleans, null. */
const plainData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 28, maxLength: 80 }),
    fc.maxSafeInteger(),
    fc.integer({ min: -30, max: 30 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), tie('value'), { maxKeys: 5 })
      .filter((map) => !Object.hasOwn(map, '__proto__'))
  )
})).value

describe('decodeCanonicalCbor (record-v1 R18 in one pass)', () => {
  it('answers every canonical encoding of plain data with the value dagCbor.decode gives', () => {
    fc.assert(fc.property(plainData, (value) => {
      const bytes = dagCbor.encode(value)
      // Well-formed text only: a lone surrogate is written as U+FFFD, not canonical (R3 refuses it anyway).
      if (!sameBytes(dagCbor.encode(dagCbor.decode(bytes)), bytes)) return
      const fast = decodeCanonicalCbor(bytes)
      const startsWithBom = (text: string): boolean => text.charCodeAt(0) === 0xfeff
      if (fast === undefined && JSON.stringify(value, (_, v: unknown) => typeof v === 'string' && startsWithBom(v) ? 'BOM' : v).includes('"BOM"')) return
      expect(fast).toStrictEqual(dagCbor.decode(bytes))
    }), { numRuns: 2000 })
  })

  it('answers only for canonical bytes, whatever they are (mutated encodings and random bytes)', () => {
    const mutated = fc.tuple(plainData, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }))
      .map(([value, edits]) => {
        const bytes = dagCbor.encode(value).slice()
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte
        return bytes
      })
    fc.assert(fc.property(fc.oneof(mutated, fc.uint8Array({ maxLength: 64 })), (bytes) => { expectSound(bytes) }), { numRuns: 5000 })
  })

  it('gives undefined for each way bytes can decode but not be canonical', () => {
    const cases: Record<string, string> = {
      'integer in more bytes than needed': 'a1 61 61 18 05',
      'length in more bytes than needed': 'a1 61 61 78 01 62',
      'map keys out of order (longer first)': 'a2 62 61 61 01 61 62 02',
      'map keys out of order (bytewise)': 'a2 61 62 01 61 61 02',
      'repeated map key': 'a2 61 61 01 61 61 02',
      'an integral float': 'fb 3ff0000000000000',
      'negative zero': 'fb 8000000000000000',
      'a single float': 'fa 3fc00000',
      'a half float': 'f9 3c00',
      'NaN': 'fb 7ff8000000000000',
      'Infinity': 'fb 7ff0000000000000',
      undefined: 'f7',
      'a text starting with a BOM': '63 efbbbf',
      'malformed UTF-8': '62 c328',
      'a UTF-8 surrogate': '63 eda080',
      'a byte string': '41 00',
      'a tag (CID)': 'd8 2a 41 00',
      'an indefinite array': '9f ff',
      'a key that is not text': 'a1 01 02',
      'a __proto__ key': 'a1 69 5f5f70726f746f5f5f 01',
      'bytes after the item': '01 01',
      'a truncated text': '63 6161',
      'an integer beyond 2^53 - 1': '1b 0020000000000000',
      'a negative integer beyond -(2^53 - 1)': '3b 001fffffffffffff'
    }
    for (const [what, bytes] of Object.entries(cases)) {
      expect(decodeCanonicalCbor(hex(bytes)), what).toBeUndefined()
    }
  })

  it('reads the largest safe integers and the shortest forms at every boundary', () => {
    for (const n of [0, 23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
      expect(expectSound(dagCbor.encode(n))).toBe(n)
      const negative = n === Number.MAX_SAFE_INTEGER ? -n : -n - 1 // −(2⁵³ − 1) is the last safe one
      expect(expectSound(dagCbor.encode(negative))).toBe(negative)
    }
    expect(decodeCanonicalCbor(dagCbor.encode(-Number.MAX_SAFE_INTEGER - 1))).toBeUndefined()
  })

  it('decodes every generated signed record in one pass, as the general path does', () => {
    fc.assert(fc.property(anyRecord, (record) => {
      const { signed } = signRecord(record, secretKeyOf(record))
      const bytes = encodeSignedRecord(signed)
      const received = decodeReceivedRecord(bytes)
      expect(received.canonical).toBe(true)
      expect(received.signed).toStrictEqual(decodeSignedRecord(bytes))
    }), { numRuns: 200 })
  })
})

interface InvalidVector { id: string, signed?: unknown, json_only?: true, bytes?: { hex: string, zero_pad_to?: number } }
interface ValidVector { id: string, signed: unknown, signed_cbor_hex?: string }

describe('decodeReceivedRecord on the record vectors (protocols/vectors/records)', () => {
  const load = <V>(name: string): { now: string, vectors: V[] } =>
    JSON.parse(readFileSync(new URL(`../../../protocols/vectors/records/${name}`, import.meta.url), 'utf8')) as { now: string, vectors: V[] }

  /** The general path's verdict on bytes: the decoded record and whether they are canonical, or the error code. */
  function generalReceived (bytes: Uint8Array): string {
    try {
      const signed = decodeSignedRecord(bytes)
      const canonical = sameBytes(encodeSignedRecord(signed), bytes)
      return `ok ${String(canonical)} ${JSON.stringify(signed)}`
    } catch (err) {
      return isIsnadError(err) ? err.code : `non-IsnadError ${String(err)}`
    }
  }

  function fastReceived (bytes: Uint8Array): string {
    try {
      const { signed, canonical } = decodeReceivedRecord(bytes)
      // `canonical: false` means "not known": the caller compares, as the general path does.
      const known = canonical || sameBytes(encodeSignedRecord(signed), bytes)
      return `ok ${String(known)} ${JSON.stringify(signed)}`
    } catch (err) {
      return isIsnadError(err) ? err.code : `non-IsnadError ${String(err)}`
    }
  }

  const invalid = load<InvalidVector>('invalid.json')
  const valid = load<ValidVector>('valid.json')
  const inputs: Array<[string, Uint8Array]> = [
    ...invalid.vectors.filter((v) => v.bytes !== undefined).map((v): [string, Uint8Array] => {
      const head = hex(v.bytes?.hex ?? '')
      const out = new Uint8Array(Math.max(head.length, v.bytes?.zero_pad_to ?? 0))
      out.set(head)
      return [v.id, out]
    }),
    // The vectors given as data reach verifyRecordBytes as their DAG-CBOR (vectors.test.ts).
    ...invalid.vectors.filter((v) => v.bytes === undefined && v.json_only !== true).flatMap((v): Array<[string, Uint8Array]> => {
      try {
        return [[v.id, dagCbor.encode(v.signed)]]
      } catch {
        return []
      }
    }),
    ...valid.vectors.map((v): [string, Uint8Array] => [v.id, v.signed_cbor_hex === undefined ? encodeCanonical(v.signed) : hex(v.signed_cbor_hex)])
  ]

  it('gives the general path\'s record, form and error code on every vector with bytes', () => {
    expect(inputs.length).toBeGreaterThan(10)
    for (const [id, bytes] of inputs) {
      expect(fastReceived(bytes), id).toBe(generalReceived(bytes))
      expectSound(bytes)
    }
  })
})
