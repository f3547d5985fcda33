import { describe, expect, it } from 'vitest'
import {
  computeTrust, type AnchorEvidence, type AnchorRefusalCode, type AttestationEvidence, type AttestationRefusalCode
} from '../../../src/trust/index.js'
import type { AnchorState } from '../../../src/schema/index.js'
import {
  anchorEvidence, attestationEvidence as att, memoryEvidence, minutes, NOW, T0
} from './fixtures.js'

/** Every case runs with the author's reputation at 0.5 and a valid memory signature: base 0.3. */
function score (attestations: AttestationEvidence[], anchors: AnchorEvidence[] = []): ReturnType<typeof computeTrust> {
  return computeTrust({ memory: memoryEvidence(), attestations, anchors, now: NOW })
}

interface AttestationCase {
  name: string
  attestations: AttestationEvidence[]
  counted: string[]
  refused: Record<string, AttestationRefusalCode>
  score: number
}

const SKEW = minutes(15)

const attestationCases: AttestationCase[] = [
  { name: 'signature invalid', attestations: [att({ id: 'a1', witness: 'w1', signatureValid: false })], counted: [], refused: { a1: 'SIGNATURE_INVALID' }, score: 0.3 },
  { name: 'attestation of another memory', attestations: [att({ id: 'a1', witness: 'w1', memory: 'other' })], counted: [], refused: { a1: 'WRONG_MEMORY' }, score: 0.3 },
  // The author never witnesses itself.
  { name: 'the author confirms itself', attestations: [att({ id: 'a1', witness: 'author' })], counted: [], refused: { a1: 'SELF_ATTESTATION' }, score: 0.3 },
  { name: 'dated 15 min + 1 ms after now', attestations: [att({ id: 'a1', witness: 'w1', at: NOW + SKEW + 1 })], counted: [], refused: { a1: 'TIMESTAMP_IN_FUTURE' }, score: 0.3 },
  // 0.3 + 0.2 for the confirm: exactly 15 minutes ahead is still allowed (record-v1 R5: "more than").
  { name: 'dated exactly 15 min after now', attestations: [att({ id: 'a1', witness: 'w1', at: NOW + SKEW })], counted: ['a1'], refused: {}, score: 0.5 },
  { name: 'dated 15 min + 1 ms before the memory', attestations: [att({ id: 'a1', witness: 'w1', at: T0 - SKEW - 1 })], counted: [], refused: { a1: 'BEFORE_MEMORY' }, score: 0.3 },
  { name: 'dated exactly 15 min before the memory', attestations: [att({ id: 'a1', witness: 'w1', at: T0 - SKEW })], counted: ['a1'], refused: {}, score: 0.5 },
  {
    // One vote per witness: w1's newer dispute replaces its confirm. 0.3 − 0.15 = 0.15.
    name: 'a witness changes confirm to dispute',
    attestations: [att({ id: 'a1', witness: 'w1', at: T0 + minutes(5) }), att({ id: 'a2', witness: 'w1', verdict: 'dispute', at: T0 + minutes(6) })],
    counted: ['a2'], refused: { a1: 'SUPERSEDED_BY_NEWER' }, score: 0.15
  },
  {
    // ... and back: the newest is a confirm. 0.3 + 0.2 = 0.5.
    name: 'a witness changes dispute to confirm',
    attestations: [att({ id: 'a1', witness: 'w1', verdict: 'dispute', at: T0 + minutes(5) }), att({ id: 'a2', witness: 'w1', at: T0 + minutes(6) })],
    counted: ['a2'], refused: { a1: 'SUPERSEDED_BY_NEWER' }, score: 0.5
  },
  {
    // Three confirms by one witness are one vote: +0.2, not +0.3.
    name: 'one witness confirms three times',
    attestations: [1, 2, 3].map((i) => att({ id: `a${i}`, witness: 'w1', at: T0 + minutes(i) })),
    counted: ['a3'], refused: { a1: 'SUPERSEDED_BY_NEWER', a2: 'SUPERSEDED_BY_NEWER' }, score: 0.5
  },
  {
    // Same instant: ties go to the greater id, so `b` (dispute) is "newest". 0.3 − 0.15.
    name: 'same witnessed_at, the greater id wins',
    attestations: [att({ id: 'b', witness: 'w1', verdict: 'dispute' }), att({ id: 'a', witness: 'w1' })],
    counted: ['b'], refused: { a: 'SUPERSEDED_BY_NEWER' }, score: 0.15
  },
  {
    // A forged newer dispute is refused first, so it cannot silence w1's valid confirm.
    name: 'an invalid newer attestation does not supersede a valid one',
    attestations: [att({ id: 'a1', witness: 'w1', at: T0 + minutes(5) }), att({ id: 'a2', witness: 'w1', verdict: 'dispute', at: T0 + minutes(6), signatureValid: false })],
    counted: ['a1'], refused: { a2: 'SIGNATURE_INVALID' }, score: 0.5
  },
  {
    name: 'a future-dated newer attestation does not supersede',
    attestations: [att({ id: 'a1', witness: 'w1' }), att({ id: 'a2', witness: 'w1', verdict: 'dispute', at: NOW + minutes(60) })],
    counted: ['a1'], refused: { a2: 'TIMESTAMP_IN_FUTURE' }, score: 0.5
  },
  {
    name: 'the same attestation passed twice counts once',
    attestations: [att({ id: 'a1', witness: 'w1' }), att({ id: 'a1', witness: 'w1' })],
    counted: ['a1'], refused: { a1: 'DUPLICATE_ATTESTATION' }, score: 0.5
  },
  {
    // Partials count as neither confirm nor dispute in isnad-v0.1: the score stays at the base 0.3.
    name: 'a partial',
    attestations: [att({ id: 'a1', witness: 'w1', verdict: 'partial' })],
    counted: ['a1'], refused: {}, score: 0.3
  },
  {
    // 3 confirms (+0.3) and 2 disputes (−0.3) by five witnesses, a partial ignored: 0.3 + 0.3 − 0.3.
    name: 'mixed verdicts by distinct witnesses',
    attestations: [
      att({ id: 'c1', witness: 'w1' }), att({ id: 'c2', witness: 'w2' }), att({ id: 'c3', witness: 'w3' }),
      att({ id: 'd1', witness: 'w4', verdict: 'dispute' }), att({ id: 'd2', witness: 'w5', verdict: 'dispute' }),
      att({ id: 'p1', witness: 'w6', verdict: 'partial' })
    ],
    counted: ['c1', 'c2', 'c3', 'd1', 'd2', 'p1'], refused: {}, score: 0.3
  }
]

describe('attestation counting rules', () => {
  it.each(attestationCases)('$name', (c) => {
    const result = score(c.attestations)
    expect(result.counted.attestations.map((a) => a.id).sort(), `${c.name}: counted`).toStrictEqual(c.counted)
    const refused = Object.fromEntries(result.refused.attestations.map((r) => [r.id, r.code]))
    expect(refused, `${c.name}: refused codes`).toStrictEqual(c.refused)
    for (const r of result.refused.attestations) {
      expect(r.reason, `${c.name}: the reason for ${r.code} names the attestation`).toContain(r.id)
    }
    expect(result.points, `${c.name}: score`).toBe(c.score)
  })

  it('timestamps compare as instants, not strings (…05:00.500Z is after …05:00Z)', () => {
    const older = att({ id: 'b', witness: 'w1', verdict: 'dispute' })
    older.record.witnessed_at = '2026-02-05T11:35:00Z'
    const newer = att({ id: 'a', witness: 'w1' })
    newer.record.witnessed_at = '2026-02-05T11:35:00.500Z'
    const result = score([older, newer])
    expect(result.counted.attestations.map((a) => a.id), 'ms timestamps: the .500 one counts').toStrictEqual(['a'])
  })

  it('superseded and duplicate refusals name the attestation that counts instead', () => {
    const result = score([att({ id: 'a1', witness: 'w1', at: T0 + minutes(5) }), att({ id: 'a2', witness: 'w1', at: T0 + minutes(6) })])
    expect(result.refused.attestations[0]?.superseded_by, 'superseded: superseded_by').toBe('a2')
  })

  it('partials and disputes are explained per attestation; confirms score as a group', () => {
    const result = score([
      att({ id: 'c1', witness: 'w1' }), att({ id: 'd1', witness: 'w2', verdict: 'dispute' }), att({ id: 'p1', witness: 'w3', verdict: 'partial' })
    ])
    const byId = Object.fromEntries(result.counted.attestations.map((a) => [a.id, a]))
    expect(byId.p1?.points, 'partial: weight 0').toBe(0)
    expect(byId.p1?.note, 'partial: note').toMatch(/neither confirm nor dispute in isnad-v0\.1/)
    expect(byId.d1?.points, 'dispute: −0.15').toBe(-0.15)
    expect(byId.c1?.points, 'confirm: no points of its own').toBeUndefined()
    expect(result.factors, 'mixed: factors').toMatchObject({ witness_count: 3, confirm_count: 1, dispute_count: 1, partial_count: 1 })
  })

  it('an invalid memory signature withholds the +0.2 and says so', () => {
    const result = computeTrust({ memory: memoryEvidence({ signatureValid: false }), attestations: [], anchors: [], now: NOW })
    const signature = result.contributions.find((c) => c.factor === 'author_signature')
    expect(signature?.points, 'unsigned memory: signature points').toBe(0)
    expect(signature?.reason, 'unsigned memory: reason').toMatch(/does not verify: the \+0\.2 is not given/)
    expect(result.factors.signature_valid, 'unsigned memory: factor').toBe(false)
    expect(result.points, 'unsigned memory: only 0.2 × 0.5 reputation').toBe(0.1)
  })

  it('explains every step of the algorithm, in the schema\'s order', () => {
    expect(score([]).contributions.map((c) => c.factor), 'no evidence: contributions')
      .toStrictEqual(['author_signature', 'confirms', 'anchors', 'author_reputation', 'disputes'])
  })
})

interface AnchorCase {
  name: string
  anchors: AnchorEvidence[]
  counted: string[]
  refused: Record<string, AnchorRefusalCode>
  score: number
}

const NOT_VERIFIED: AnchorState[] = ['mismatch', 'unreachable', 'unverifiable', 'unchecked']

const anchorCases: AnchorCase[] = [
  { name: 'signature invalid', anchors: [anchorEvidence({ id: 'k1', signatureValid: false })], counted: [], refused: { k1: 'SIGNATURE_INVALID' }, score: 0.3 },
  { name: 'anchor of another memory', anchors: [anchorEvidence({ id: 'k1', memory: 'other' })], counted: [], refused: { k1: 'WRONG_MEMORY' }, score: 0.3 },
  { name: 'dated 15 min + 1 ms after now', anchors: [anchorEvidence({ id: 'k1', at: NOW + SKEW + 1 })], counted: [], refused: { k1: 'TIMESTAMP_IN_FUTURE' }, score: 0.3 },
  // Anchors may predate the memory (the schema's example 2): +0.2.
  { name: 'anchor a week older than the memory', anchors: [anchorEvidence({ id: 'k1', at: T0 - minutes(7 * 24 * 60) })], counted: ['k1'], refused: {}, score: 0.5 },
  ...NOT_VERIFIED.map((state): AnchorCase => ({
    name: `verification state ${state}`, anchors: [anchorEvidence({ id: 'k1', state })], counted: [], refused: { k1: 'ANCHOR_NOT_VERIFIED' }, score: 0.3
  })),
  {
    // Same type and reference: one piece of evidence, +0.2 and not +0.3. The earliest counts.
    name: 'the same URL anchored twice',
    anchors: [anchorEvidence({ id: 'k2', reference: 'https://example.org/x', at: T0 }), anchorEvidence({ id: 'k1', reference: 'https://example.org/x', at: T0 + minutes(1) })],
    counted: ['k2'], refused: { k1: 'DUPLICATE_ANCHOR' }, score: 0.5
  },
  {
    name: 'the same anchor passed twice',
    anchors: [anchorEvidence({ id: 'k1' }), anchorEvidence({ id: 'k1' })],
    counted: ['k1'], refused: { k1: 'DUPLICATE_ANCHOR' }, score: 0.5
  },
  {
    // A different type is different evidence, even with the same reference: 0.3 + 0.3.
    name: 'same reference, different types',
    anchors: [anchorEvidence({ id: 'k1', type: 'url', reference: 'x' }), anchorEvidence({ id: 'k2', type: 'moltbook_post', reference: 'x' })],
    counted: ['k1', 'k2'], refused: {}, score: 0.6
  },
  {
    // A duplicate of a refused anchor is not a duplicate: only counted anchors are compared.
    name: 'an unverified anchor does not shadow a verified copy',
    anchors: [anchorEvidence({ id: 'k1', reference: 'x', at: T0, state: 'mismatch' }), anchorEvidence({ id: 'k2', reference: 'x', at: T0 + 1 })],
    counted: ['k2'], refused: { k1: 'ANCHOR_NOT_VERIFIED' }, score: 0.5
  }
]

describe('anchor counting rules', () => {
  it.each(anchorCases)('$name', (c) => {
    const result = score([], c.anchors)
    expect(result.counted.anchors.map((a) => a.id).sort(), `${c.name}: counted`).toStrictEqual(c.counted)
    const refused = Object.fromEntries(result.refused.anchors.map((r) => [r.id, r.code]))
    expect(refused, `${c.name}: refused codes`).toStrictEqual(c.refused)
    for (const r of result.refused.anchors) {
      expect(r.reason, `${c.name}: the reason for ${r.code} names the anchor`).toContain(r.id)
    }
    expect(result.points, `${c.name}: score`).toBe(c.score)
    expect(result.factors.anchor_count, `${c.name}: anchor_count`).toBe(c.counted.length)
  })

  it.each(NOT_VERIFIED)('an anchor in state %s is refused with its state', (state) => {
    const refusal = score([], [anchorEvidence({ id: 'k1', state })]).refused.anchors[0]
    expect(refusal?.state, `state ${state}: state field`).toBe(state)
    expect(refusal?.reason, `state ${state}: reason`).toContain(state)
  })
})
