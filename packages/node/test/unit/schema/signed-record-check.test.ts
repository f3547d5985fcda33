import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { parseSignedRecord, schemaError } from '../../../src/record/index.js'
import { checkSignedRecord, SignedRecordSchema, type SignedRecord } from '../../../src/schema/index.js'
import { anyRecord } from '../record/arbitraries.js'

/*
 * checkSignedRecord (src/schema/signed-record-check.ts) must agree with SignedRecordSchema, the
 * declared schema, on every input a node reads (decoded CBOR, parsed JSON: no `undefined` fields):
 * it accepts exactly what zod accepts, with zod's value (fields in zod's order too), and
 * parseSignedRecord refuses with zod's error code and message.
 */

interface Vector { id: string, signed?: unknown, json_only?: true }
function load (name: string): Vector[] {
  return (JSON.parse(readFileSync(new URL(`../../../protocols/vectors/records/${name}`, import.meta.url), 'utf8')) as { vectors: Vector[] }).vectors
}

/** Asserts that the check and zod agree on `input`; returns whether zod accepted it. */
function expectAgreement (input: unknown, label: string): boolean {
  const zod = SignedRecordSchema.safeParse(input)
  const fast = checkSignedRecord(input)
  expect(fast !== undefined, `${label}: accepted by the check ⇔ by zod`).toBe(zod.success)
  if (zod.success) {
    expect(fast, label).toStrictEqual(zod.data)
    expect(JSON.stringify(fast), `${label}: field order`).toBe(JSON.stringify(zod.data))
    expect(parseSignedRecord(input), label).toStrictEqual(zod.data)
  } else {
    const expected = schemaError(zod.error, 'record')
    let thrown: unknown
    try { parseSignedRecord(input) } catch (err) { thrown = err }
    expect(isIsnadError(thrown) && thrown.code, label).toBe(expected.code)
    expect((thrown as Error).message, label).toBe(expected.message)
  }
  return zod.success
}

const SIGNATURE = 'A'.repeat(85) + 'g'
const signedOf = (record: unknown): SignedRecord => ({ record, signature: SIGNATURE }) as SignedRecord
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Values to put where a field was: of every type, at the limits, and breaking each text rule. */
const REPLACEMENTS: unknown[] = [
  null, true, 0, -0, 1, 2, 0.5, -1, 1.5, 2 ** 32 - 1, 2 ** 32, 4096, 8192, 3, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY,
  '', ' ', 'a', 'a b', 'a\nb', 'a\tb', '\u0000', '\u007f', '\ud800', '\udc00x', '𝄞', 'é'.repeat(200), 'x'.repeat(513), 'x'.repeat(4097),
  'memory', 'attestation', 'anchor', 'witness_request', 'insight', 'confirm', 'partial', 'cid', 'url',
  '2026-02-05T16:00:00Z', '2026-02-05T16:00:00.500Z', '2026-02-30T16:00:00Z', '2100-02-29T00:00:00Z', '2026-02-05T24:00:00Z',
  'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zz', 'BAFYREIGH2AKISCAILDCQABSYG3DFR6CHU3FGPREGIYMSCK7E7AQA4S52ZY',
  'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'did:key:0abc', 'did:web:example.com',
  'sha2-256:9f86', 'SHA2-256:9F86', 'A'.repeat(86), 'A'.repeat(107), 'A'.repeat(106),
  [], ['a'], ['a', 'a'], ['a', 'b'], [1], Array.from({ length: 33 }, (_, i) => `t${i}`), {}, { a: 1 }
]

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function pathsOf (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return []
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value)
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key])])
}

type Mutation = { op: 'set', value: unknown } | { op: 'delete' } | { op: 'add', key: string, value: unknown }

/** `value` with one change at `path` (a copy). */
function mutate (value: unknown, path: Array<string | number>, mutation: Mutation): unknown {
  const copy = clone(value)
  let parent = copy as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (mutation.op === 'set') parent[last] = mutation.value
  else if (mutation.op === 'add') {
    const target = parent[last]
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[mutation.key] = mutation.value
    else parent[last] = mutation.value
  } else if (Array.isArray(parent)) parent.splice(last as number, 1)
  else delete parent[last]
  return copy
}

const OPTIONAL_NAMES = ['platform', 'handle', 'session_id', 'trigger', 'supersedes', 'notes', 'claims', 'draw', 'shards', 'witnesses', 'expires_at', 'extra']

describe('checkSignedRecord against SignedRecordSchema', () => {
  it('agrees on every record vector, valid and invalid', () => {
    let accepted = 0
    for (const vector of [...load('valid.json'), ...load('invalid.json')]) {
      if (vector.signed === undefined) continue
      if (expectAgreement(vector.signed, vector.id)) accepted++
    }
    expect(accepted).toBeGreaterThan(10)
  })

  it('agrees on generated records, which zod accepts', () => {
    fc.assert(fc.property(anyRecord, (record) => {
      expect(expectAgreement(signedOf(record), JSON.stringify(record))).toBe(true)
    }), { numRuns: 300 })
  })

  it('agrees on every one-field change of generated records', () => {
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), value: fc.constantFrom(...REPLACEMENTS) }),
      fc.constant({ op: 'delete' as const }),
      fc.record({ op: fc.constant('add' as const), key: fc.constantFrom(...OPTIONAL_NAMES), value: fc.constantFrom(...REPLACEMENTS) })
    )
    fc.assert(fc.property(anyRecord, fc.nat(), mutation, (record, pick, change) => {
      const signed = signedOf(record)
      const paths = pathsOf(signed)
      const path = paths[pick % paths.length] as Array<string | number>
      expectAgreement(mutate(signed, path, change), `${path.join('.')} ${JSON.stringify(change)} of ${JSON.stringify(record)}`)
    }), { numRuns: 2000 })
  })

  it('agrees on plain data of any shape', () => {
    const json = fc.jsonValue({ maxDepth: 4 })
    fc.assert(fc.property(json, (value) => { expectAgreement(value, JSON.stringify(value)) }), { numRuns: 300 })
    fc.assert(fc.property(json, (value) => { expectAgreement({ record: value, signature: SIGNATURE }, JSON.stringify(value)) }), { numRuns: 300 })
  })

  it('leaves an optional field set to undefined, and objects that are not plain, to zod', () => {
    const record = fc.sample(anyRecord, { seed: 1, numRuns: 1 })[0] as SignedRecord['record']
    expect(checkSignedRecord(signedOf({ ...record, notes: undefined }))).toBeUndefined()
    expect(checkSignedRecord(Object.assign(Object.create(null) as object, signedOf(record)))).toBeUndefined()
    expect(checkSignedRecord(signedOf(record))).toStrictEqual(SignedRecordSchema.parse(signedOf(record)))
  })

  it('returns a copy: changing the input afterwards changes nothing', () => {
    const [record] = fc.sample(anyRecord.filter((r) => r.kind === 'memory'), { seed: 2, numRuns: 1 })
    const input = clone(signedOf(record))
    const checked = checkSignedRecord(input)
    const before = clone(checked)
    ;(input.record as { content: { tags: string[] } }).content.tags.push('late')
    ;(input.record as { content: { summary: string } }).content.summary = 'changed'
    expect(checked).toStrictEqual(before)
  })
})
