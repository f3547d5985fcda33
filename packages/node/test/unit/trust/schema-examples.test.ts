import { describe, expect, it } from 'vitest'
import { recordCidOf } from '../../../src/record/index.js'
import {
  AnchorRecordSchema, MemoryRecordSchema, TrustResultSchema, type AnchorRecord, type MemoryRecord
} from '../../../src/schema/index.js'
import { computeTrust, type TrustInput } from '../../../src/trust/index.js'
import { did } from './fixtures.js'

/**
 * The provenance schema's two example memories, as real records, scored by `isnad-v0.1`.
 * Both examples print a score that their own "Verification Algorithm" does not give. The
 * project follows the algorithm, and these tests pin the algorithm's numbers, not the printed ones.
 */

const babel = did('Babel')
const NOW = Date.parse('2026-02-05T16:15:00Z') // the schema's `trust.computed_at`

function memory (summary: string, type: MemoryRecord['content']['type'], createdAt: string, trigger: string): { id: string, record: MemoryRecord } {
  const record = MemoryRecordSchema.parse({
    kind: 'memory',
    version: 1,
    content: { type, summary, body: summary, tags: ['memory'] },
    author: { agent_id: babel, platform: 'clawdbot' },
    created_at: createdAt,
    context: { trigger, confidence: 0.9 },
    lineage: { derived_from: [] }
  })
  return { id: recordCidOf(record).toString(), record }
}

const example1 = memory('Memory synthesis is harder than memory storage', 'insight', '2026-02-04T16:00:00Z', 'Deep thinking session on memory problems')
const example2 = memory('eudaemon_0 proposed isnad chains for skill verification', 'encounter', '2026-02-05T11:29:38Z', 'Reading Moltbook hot feed')
const moltbookAnchor: AnchorRecord = AnchorRecordSchema.parse({
  kind: 'anchor',
  version: 1,
  memory: example2.id,
  type: 'moltbook_post',
  reference: 'https://moltbook.com/p/cbd6474f-8478-4894-95f1-7b104a73bcd5',
  hash: 'sha2-256:' + 'ab'.repeat(32),
  // Older than the memory: the anchor points at a post published first. Anchors may predate memories.
  created_at: '2026-01-30T05:39:05Z',
  anchored_by: babel
})

interface ExampleCase {
  name: string
  input: TrustInput
  schemaSays: number
  score: number
  level: string
  setBy: string
  factors: { author_reputation: number, witness_count: number, anchor_count: number }
}

const example1Input: TrustInput = {
  memory: { ...example1, signatureValid: true }, attestations: [], anchors: [], reputation: () => 0.5, now: NOW
}

const cases: ExampleCase[] = [
  {
    // Algorithm: +0.2 (Babel's signature verifies) + 0.2 × reputation 0.5 = 0.1 → 0.3, no witness, no
    // anchor, no dispute. 0.3 is the Attested lower bound. The schema prints 0.2: it leaves out the
    // reputation term its own algorithm adds (`score += author_rep * 0.2`), although its factors
    // list `author_reputation: 0.5`. No witness confirmed it: the level table's "Attested: at least
    // one witness" does not hold, so the evidence band keeps it Unverified ("self-reported only").
    name: 'example 1: self-reported insight',
    input: example1Input,
    schemaSays: 0.2,
    score: 0.3,
    level: 'Unverified',
    setBy: 'evidence',
    factors: { author_reputation: 0.5, witness_count: 0, anchor_count: 0 }
  },
  {
    // Algorithm: +0.2 signature + 0.2 for ≥1 valid anchor (the verified Moltbook post) + 0.2 × 0.5
    // reputation = 0.5, Attested. The schema prints 0.6 (Anchored), which its algorithm reaches only
    // with a second anchor (+0.1) or a confirm (+0.2); a single anchor is worth 0.2, not 0.3.
    // No witness confirmed it: Unverified by the evidence band (Anchored needs a counted confirm
    // and a verified anchor; the levels are a ladder).
    name: 'example 2: anchored encounter',
    input: {
      memory: { ...example2, signatureValid: true },
      attestations: [],
      anchors: [{ id: recordCidOf(moltbookAnchor).toString(), record: moltbookAnchor, signatureValid: true, verification: { state: 'verified' } }],
      reputation: () => 0.5,
      now: NOW
    },
    schemaSays: 0.6,
    score: 0.5,
    level: 'Unverified',
    setBy: 'evidence',
    factors: { author_reputation: 0.5, witness_count: 0, anchor_count: 1 }
  }
]

describe('isnad-v0.1 on the provenance schema\'s examples', () => {
  it.each(cases)('$name', (c) => {
    const result = computeTrust(c.input)
    expect(result.points, `${c.name}: score (the schema's text says ${c.schemaSays})`).toBe(c.score)
    expect(result.points, `${c.name}: differs from the schema's printed score`).not.toBe(c.schemaSays)
    expect(result.level, `${c.name}: level`).toBe(c.level)
    expect(result.level_basis?.score_level, `${c.name}: the score's band`).toBe('Attested')
    expect(result.level_basis?.set_by, `${c.name}: which rule set the level`).toBe(c.setBy)
    expect(result.level_basis?.reason, `${c.name}: the reason names the missing witness`).toContain('no confirm counts as a witness')
    expect(result.policy, `${c.name}: policy`).toBe('isnad-v0.1')
    expect(result.computed_at, `${c.name}: computed_at`).toBe('2026-02-05T16:15:00.000Z')
    expect(result.factors, `${c.name}: the schema's factor names`).toMatchObject(c.factors)
    expect(TrustResultSchema.safeParse(result).error, `${c.name}: result parses with TrustResultSchema`).toBeUndefined()
  })

  it('example 1 with the default reputation lookup (0.5 for an unknown agent) gives the same result', () => {
    const { reputation: _, ...input } = example1Input
    expect(computeTrust(input), 'example 1: default reputation').toStrictEqual(computeTrust(example1Input))
  })

  it('example 1: age_days counts whole days since created_at', () => {
    expect(computeTrust(example1Input).factors.age_days, 'example 1: created a day and 15 minutes before now').toBe(1)
  })
})
