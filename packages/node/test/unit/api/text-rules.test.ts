import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { OPERATION_SPECS, parseOperationInput, type OperationSpec } from '../../../src/operations/index.js'
import { MAX_REASON_BYTES, RevocationEventSchema } from '../../../src/key-events/index.js'
import { MemoryContentSchema } from '../../../src/schema/index.js'

/*
 * record-v1 R3 says exactly which characters are whitespace in a tag and which
 * line breaks one-line text refuses; protocols/vectors/text-rules.json lists them, and the schemas
 * must agree with every vector. A revocation's reason is line(256).
 */

interface TextVector { code_point: string, name: string, tag: boolean, line: boolean, text: boolean }
const VECTORS = (JSON.parse(readFileSync(new URL('../../../protocols/vectors/text-rules.json', import.meta.url), 'utf8')) as { vectors: TextVector[] }).vectors

function charOf (codePoint: string): string {
  return String.fromCodePoint(Number.parseInt(codePoint.slice(2), 16))
}

describe('record-v1 R3: whitespace in tags, line breaks in one-line text', () => {
  it('has a vector for each character the rule names', () => {
    expect(VECTORS.map((v) => v.code_point)).toEqual(expect.arrayContaining(['U+00A0', 'U+200B', 'U+2028', 'U+0085']))
  })

  for (const vector of VECTORS) {
    it(`${vector.code_point} (${vector.name})`, () => {
      const value = `a${charOf(vector.code_point)}b`
      expect(MemoryContentSchema.shape.tags.element.safeParse(value).success, `${vector.code_point} in a tag`).toBe(vector.tag)
      expect(MemoryContentSchema.shape.summary.safeParse(value).success, `${vector.code_point} in one-line text`).toBe(vector.line)
      expect(MemoryContentSchema.shape.body.safeParse(value).success, `${vector.code_point} in multi-line text`).toBe(vector.text)
    })
  }
})

describe('a revocation\'s reason (record-v1 §13)', () => {
  const revoke = OPERATION_SPECS.revokeKey as unknown as OperationSpec
  const base = {
    kind: 'key_event', version: 1, identity: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', sequence: 1,
    created_at: '2026-02-01T00:00:00Z', type: 'revocation', previous: 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje',
    key: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', effective_at: '2026-02-01T00:00:00Z'
  }

  it(`is text of at most ${MAX_REASON_BYTES} UTF-8 bytes without line breaks, in the record and in the operation`, () => {
    expect(MAX_REASON_BYTES).toBe(256)
    expect(RevocationEventSchema.safeParse({ ...base, reason: 'é'.repeat(128) }).success).toBe(true)
    expect(RevocationEventSchema.safeParse({ ...base, reason: 'é'.repeat(128) + 'x' }).success).toBe(false)
    expect(RevocationEventSchema.safeParse({ ...base, reason: 'two\nlines' }).success).toBe(false)
    expect(RevocationEventSchema.safeParse({ ...base, reason: 42 }).success).toBe(false)
    expect(() => parseOperationInput(revoke, { reason: 'x'.repeat(257) })).toThrow(expect.objectContaining({ code: 'FIELD_TOO_LARGE' }))
    expect(() => parseOperationInput(revoke, { reason: 'two\nlines' })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    expect(parseOperationInput(revoke, { reason: 'x'.repeat(256) })).toMatchObject({ reason: 'x'.repeat(256) })
  })
})
