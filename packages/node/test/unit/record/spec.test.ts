import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as limits from '../../../src/schema/record-limits.js'
import { VALID } from './fixtures.js'

/** protocols/record-v1.md against the code and the vectors: the limits table, the rules, §11. */

const spec = readFileSync(new URL('../../../protocols/record-v1.md', import.meta.url), 'utf8')
const invalid = JSON.parse(readFileSync(new URL('../../../protocols/vectors/records/invalid.json', import.meta.url), 'utf8')) as {
  vectors: Array<{ id: string, rule: string }>
}

describe('protocols/record-v1.md', () => {
  it('§4 lists every limit of src/schema/record-limits.ts with its value', () => {
    const rows = new Map([...spec.matchAll(/^\| `(MAX_[A-Z_]+)` \| (\d+)/gm)].map((m) => [m[1], Number(m[2])]))
    expect([...rows.keys()].sort()).toEqual(Object.keys(limits).sort())
    for (const [name, value] of Object.entries(limits)) expect(rows.get(name), name).toBe(value)
  })

  it('§5.1 numbers its rules R1…R19 in order, and every invalid vector cites one of them', () => {
    const numbers = [...spec.matchAll(/^- \*\*R(\d+) — /gm)].map((m) => Number(m[1]))
    expect(numbers).toEqual(Array.from({ length: 19 }, (_, i) => i + 1))
    for (const vector of invalid.vectors) {
      expect(numbers, vector.id).toContain(Number(vector.rule.slice(1)))
    }
  })

  it('§11 shows vector memory/example exactly', () => {
    const example = VALID.vectors.find((v) => v.id === 'memory/example') as unknown as Record<string, string>
    const flat = spec.replace(/\s+/g, '')
    for (const field of ['cid', 'record_cbor_hex', 'signing_input_hex', 'signed_cbor_hex']) {
      expect(flat.includes(example[field] ?? 'missing'), `memory/example ${field}`).toBe(true)
    }
    expect(spec).toContain((example as unknown as { signed: { signature: string } }).signed.signature)
  })
})
