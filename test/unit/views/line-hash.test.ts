import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashLine as ledgerHashLine } from '../../../src/ledger/index.js'
import { buildReductionRecord, hashLine, reduceMemory } from '../../../src/ledger/views/index.js'
import { hashAttachmentLine, hashObjectLine, hashReductionLine } from '../../../src/ledger/views/line-hash.js'
import { reduceInput } from './arbitraries.js'
import { EVIDENCE, inputOf, memoryOf } from './fixtures.js'

/*
 * line-hash.ts hashes the reducer's lines through an object literal in sorted member order. It must
 * give hashLine's result for every line, and for anything that is not such a line (an unknown
 * member, a value RFC 8785 refuses, entries in another member order) fall back to hashLine: same
 * hash, or the same refusal.
 */

type Line = Record<string, unknown>

/** The result of a hash function as a comparable value: the hash, or that it threw. */
function outcome (hash: (line: Line) => string, line: Line): string {
  try {
    return hash(line)
  } catch {
    return 'refused'
  }
}

function withoutHash ({ hash: _hash, ...rest }: Line): Line {
  return rest
}

function linesOf (input: Parameters<typeof reduceMemory>[0]): { object: Line, attachment: Line | null, record: Line } {
  const reduction = reduceMemory(input)
  const record = buildReductionRecord(reduction, '2026-11-22T00:00:00.000Z', 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa')
  return {
    object: withoutHash(reduction.object),
    attachment: reduction.attachment === null ? null : withoutHash(reduction.attachment),
    record: withoutHash(record)
  }
}

describe('line-hash: the reducer\'s lines hashed through a sorted literal', () => {
  it('equals hashLine (views and ledger) on the lines of arbitrary reductions', () => {
    fc.assert(fc.property(reduceInput, (input) => {
      let lines: ReturnType<typeof linesOf>
      try {
        lines = linesOf(input)
      } catch {
        return // a hint outside the schema
      }
      expect(hashObjectLine(lines.object)).toBe(hashLine(lines.object))
      expect(hashObjectLine(lines.object)).toBe(ledgerHashLine(lines.object))
      expect(hashReductionLine(lines.record)).toBe(hashLine(lines.record))
      if (lines.attachment !== null) expect(hashAttachmentLine(lines.attachment)).toBe(ledgerHashLine(lines.attachment))
    }), { numRuns: 300 })
  })

  const base = linesOf(inputOf(memoryOf({ type: 'decision', summary: 'Chose JSONL', tags: ['key:k'] }), { evidence: EVIDENCE }))
  const attachment = base.attachment ?? {}
  const anchors = attachment.anchors as Line[]
  const attestations = attachment.attestations as Line[]

  const odd: Array<[string, (line: Line) => string, Line]> = [
    ['an unknown member', hashObjectLine, { ...base.object, extra: 'x' }],
    ['a member set to undefined', hashObjectLine, { ...base.object, why: undefined }],
    ['a lone surrogate', hashObjectLine, { ...base.object, summary: 'a\uD800b' }],
    ['a lone surrogate in a tag', hashObjectLine, { ...base.object, tags: ['\uDC00'] }],
    ['NaN', hashObjectLine, { ...base.object, salience: Number.NaN }],
    ['Infinity', hashObjectLine, { ...base.object, confidence: Number.POSITIVE_INFINITY }],
    ['-0', hashObjectLine, { ...base.object, salience: -0 }],
    ['a nested object in an array', hashObjectLine, { ...base.object, tags: [{ b: 1, a: 2 }] }],
    ['a nested array', hashObjectLine, { ...base.object, event_refs: [['b', 'a']] }],
    ['a hash member', hashObjectLine, { ...base.object, hash: 'sha256:' + '0'.repeat(64) }],
    ['a Date', hashReductionLine, { ...base.record, ts: new Date(0) }],
    ['an anchor with another member', hashAttachmentLine, { ...attachment, anchors: [{ ...anchors[0], note: 'x' }] }],
    ['attestation members in another order', hashAttachmentLine, { ...attachment, attestations: attestations.map((a) => ({ verdict: a.verdict, id: a.id })) }],
    ['an attestation that is not an object', hashAttachmentLine, { ...attachment, attestations: ['x'] }],
    ['trust with another member', hashAttachmentLine, { ...attachment, trust: { score: 0.5, level: 'Attested', extra: 1 } }],
    ['trust missing', hashAttachmentLine, { ...attachment, trust: undefined }],
    ['an unknown member of the reducer line', hashReductionLine, { ...base.record, note: 'x' }]
  ]

  it.each(odd)('%s: the same outcome as hashLine', (_name, hash, line) => {
    expect(outcome(hash, line)).toBe(outcome(hashLine, line))
    expect(outcome(hash, line)).toBe(outcome(ledgerHashLine, line))
  })

  it('lines built in any member order hash the same', () => {
    const reversed = Object.fromEntries(Object.entries(base.object).reverse())
    expect(hashObjectLine(reversed)).toBe(hashObjectLine(base.object))
  })
})
