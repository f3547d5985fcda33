import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  decodeSignedRecord, encodeCanonical, encodeSignedRecord, recordCidOf, signRecord, verifyRecord, verifyRecordBytes, type RecordVerifier
} from '../../../src/record/index.js'
import { RecordSchema } from '../../../src/schema/index.js'
import { anyRecord, secretKeyOf } from './arbitraries.js'
import { NOW, VALID } from './fixtures.js'

const options = { verifier: nodeCryptoVerifier, now: NOW }
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b))

describe('record properties (record-v1 §2)', () => {
  it('encode → decode round-trips every valid record, and bytes and JSON give one id', () => {
    fc.assert(fc.property(anyRecord, (record) => {
      const { id, signed } = signRecord(record, secretKeyOf(record))
      const bytes = encodeSignedRecord(signed)
      expect(decodeSignedRecord(bytes)).toEqual(signed)
      expect(verifyRecordBytes(bytes, options).id).toBe(id)
      expect(verifyRecord(JSON.parse(JSON.stringify(signed)), { ...options, verifier: nobleVerifier }).id).toBe(id)
    }), { numRuns: 150 })
  })

  it('the id does not depend on the order in which keys were inserted', () => {
    fc.assert(fc.property(anyRecord, fc.infiniteStream(fc.nat()), (record, randoms) => {
      const iterator = randoms[Symbol.iterator]()
      const shuffled = reorder(record, () => iterator.next().value as number)
      expect(recordCidOf(shuffled as typeof record).toString()).toBe(recordCidOf(record).toString())
    }), { numRuns: 300 })
  })
})

/** A deep copy whose objects have their keys inserted in a random order. */
function reorder (value: unknown, random: () => number): unknown {
  // random() is any natural number; the swap index is taken modulo the remaining length.
  if (Array.isArray(value)) return value.map((item) => reorder(item, random))
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).map(([key, inner]) => [key, reorder(inner, random)] as const)
  for (let i = entries.length - 1; i > 0; i--) {
    const j = random() % (i + 1)
    const swap = entries[i]!
    entries[i] = entries[j]!
    entries[j] = swap
  }
  return Object.fromEntries(entries)
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Mutation = (target: Json) => Json

/** Every path (list of keys and indexes) into a JSON value, the root included. */
function pathsOf (value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const inner = Array.isArray(value)
    ? value.flatMap((item, i) => pathsOf(item, [...prefix, i]))
    : value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))
      : []
  return [prefix, ...inner]
}

function applyAt (root: Json, path: Array<string | number>, mutate: Mutation): Json {
  if (path.length === 0) return mutate(root)
  const [head, ...rest] = path
  const copy = structuredClone(root) as Record<string | number, Json>
  copy[head as string | number] = applyAt(copy[head as string | number] as Json, rest, mutate)
  return copy as Json
}

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((replacement): Mutation => () => replacement as Json),
  fc.constant<Mutation>(() => null),
  fc.tuple(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })).map(([key, added]): Mutation => (target) =>
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target, [key]: added as Json } : target),
  fc.string({ maxLength: 3 }).map((extra): Mutation => (target) => typeof target === 'string' ? target + extra : target),
  fc.nat().map((at): Mutation => (target) => {
    if (typeof target !== 'string' || target.length === 0) return target
    const i = at % target.length
    return target.slice(0, i) + String.fromCharCode(target.charCodeAt(i) ^ 1) + target.slice(i + 1)
  }),
  fc.double({ noNaN: true }).map((delta): Mutation => (target) => typeof target === 'number' ? target + delta : target),
  fc.constant<Mutation>((target) => Array.isArray(target) ? target.slice(1) : target),
  fc.constant<Mutation>((target) => Array.isArray(target) && target.length > 0 ? [...target, target[0]!] : target),
  fc.string({ maxLength: 4 }).map((key): Mutation => (target) => {
    if (target === null || typeof target !== 'object' || Array.isArray(target)) return target
    const copy = { ...target }
    delete copy[Object.keys(copy).find((k) => k.length % 4 === key.length % 4) ?? '']
    return copy
  })
)

const REFUSALS = new Set(['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'SIGNATURE_INVALID', 'SIGNATURE_MALFORMED', 'DID_INVALID', 'TIMESTAMP_IN_FUTURE'])

function outcome (input: unknown, verifier: RecordVerifier = nodeCryptoVerifier): string {
  try {
    return 'accepted ' + verifyRecord(structuredClone(input), { verifier, now: NOW }).id
  } catch (err) {
    return isIsnadError(err) ? err.code : `threw ${String(err)}`
  }
}

describe('mutations of a signed record (record-v1 §5)', () => {
  const seeds = VALID.vectors.filter((v) => !v.id.endsWith('fields-at-limits'))

  it('are refused with one stable code, or leave the record (and its id) unchanged', () => {
    fc.assert(fc.property(fc.constantFrom(...seeds), fc.nat(), mutations, (vector, pick, mutate) => {
      const original = vector.signed as unknown as Json
      const paths = pathsOf(original)
      const mutated = applyAt(original, paths[pick % paths.length]!, mutate)
      const result = outcome(mutated)
      // Stable: the same answer on a second run and on the other verifier.
      expect(outcome(mutated)).toBe(result)
      expect(outcome(mutated, nobleVerifier)).toBe(result)
      const record = (mutated as { record?: unknown } | null)?.record
      const unchanged = isSameSignedRecord(mutated, vector.signed.signature, encodeCanonical(vector.signed.record))
      if (unchanged) {
        expect(result).toBe(`accepted ${vector.cid}`)
        return
      }
      expect(REFUSALS.has(result), `${vector.id}: ${JSON.stringify(mutated).slice(0, 200)} → ${result}`).toBe(true)
      // Whenever the changed record is itself well-formed, its content hashes to another id.
      const parsed = RecordSchema.safeParse(record)
      if (parsed.success && !sameBytes(encodeCanonical(parsed.data), encodeCanonical(vector.signed.record))) {
        expect(recordCidOf(parsed.data).toString()).not.toBe(vector.cid)
      }
    }), { numRuns: 800 })
  })
})

/** The mutation changed nothing the canonical form sees (e.g. a tag replaced by itself). */
function isSameSignedRecord (mutated: Json, signature: string, recordBytes: Uint8Array): boolean {
  if (mutated === null || typeof mutated !== 'object' || Array.isArray(mutated)) return false
  const keys = Object.keys(mutated).sort()
  if (keys.join(',') !== 'record,signature' || mutated.signature !== signature) return false
  try {
    return sameBytes(encodeCanonical(mutated.record), recordBytes)
  } catch {
    return false
  }
}
