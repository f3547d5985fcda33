import { describe, expect, it } from 'vitest'
import { TrustResultSchema, type TrustLevel } from '../../../src/schema/index.js'
import { computeTrust, evidenceLevelOf, lowerLevel, type TrustInput } from '../../../src/trust/index.js'
import { anchors, confirms, fixedReputation, memoryEvidence, NOW } from './fixtures.js'

/*
 * The level is the lower of the score band and the evidence band, which reads the
 * provenance schema's "Trust Levels" table by meaning:
 *   Unverified  0.0-0.3  Self-reported only
 *   Attested    0.3-0.6  At least one witness
 *   Anchored    0.6-0.8  External verification exists
 *   Consensus   0.8-1.0  Multiple witnesses + anchors
 */

describe('the evidence band, row by row of the schema\'s level table', () => {
  const rows: Array<[string, number, number, TrustLevel]> = [
    ['self-reported only: no confirm, no anchor', 0, 0, 'Unverified'],
    ['an anchor but no witness is still self-reported (the author may anchor its own claim)', 0, 2, 'Unverified'],
    ['at least one witness', 1, 0, 'Attested'],
    ['several witnesses without an anchor: no external verification', 5, 0, 'Attested'],
    ['a witness and external verification', 1, 1, 'Anchored'],
    ['two witnesses and two anchors: not yet "multiple" (the schema\'s confirmed >= 3)', 2, 2, 'Anchored'],
    ['multiple witnesses + an anchor', 3, 1, 'Consensus']
  ]
  it.each(rows)('%s', (_name, c, a, level) => {
    expect(evidenceLevelOf({ confirms: c, anchors: a }), `${c} confirms, ${a} anchors`).toBe(level)
  })

  it('lowerLevel is the minimum on the ladder', () => {
    expect(lowerLevel('Consensus', 'Attested')).toBe('Attested')
    expect(lowerLevel('Unverified', 'Anchored')).toBe('Unverified')
    expect(lowerLevel('Anchored', 'Anchored')).toBe('Anchored')
  })
})

function input (parts: Partial<TrustInput> & { rep: number }): TrustInput {
  const { rep, ...rest } = parts
  return { memory: memoryEvidence(), attestations: [], anchors: [], reputation: fixedReputation(rep), now: NOW, ...rest }
}

describe('computeTrust: the level says which rule set it, under every policy', () => {
  it('an unwitnessed memory with a reputable author is Unverified, set by the evidence', () => {
    // 0.2 + 0.2 × 1 = 0.4: Attested by score, but nobody confirmed it.
    for (const policy of ['isnad-v0.1', 'isnad-reputation'] as const) {
      const result = computeTrust(input({ rep: 1 }), { policy })
      expect(result.points, `${policy}: score`).toBe(0.4)
      expect(result.level, `${policy}: level`).toBe('Unverified')
      expect(result.level_basis, `${policy}: basis`).toMatchObject({ score_level: 'Attested', evidence_level: 'Unverified', set_by: 'evidence' })
      expect(TrustResultSchema.safeParse(result).error, `${policy}: parses`).toBeUndefined()
    }
  })

  it('a low score with strong evidence is set by the score', () => {
    // 0.2 + 0.3 (3 confirms) + 0.2 (anchor) + 0 − 4 × 0.15 = 0.1 under isnad-v0.1.
    const result = computeTrust(input({ rep: 0, attestations: [...confirms(3), ...confirms(4, 'dispute', 'd')], anchors: anchors(1) }))
    expect(result.level_basis, 'basis').toMatchObject({ score_level: 'Unverified', evidence_level: 'Consensus', set_by: 'score' })
    expect(result.level).toBe('Unverified')
  })

  it('both rules agree: set by both', () => {
    // 0.2 + 0.3 + 0.3 (2 anchors) + 0.2 = 1.0, 3 confirms and anchors: Consensus by both.
    const result = computeTrust(input({ rep: 1, attestations: confirms(3), anchors: anchors(2) }))
    expect(result.level_basis?.set_by).toBe('both')
    expect(result.level).toBe('Consensus')
  })

  it('isnad-reputation counts as witnesses only confirms whose witness carries weight', () => {
    // Three confirms by witnesses of reputation 0 (no trust path): the author's reputation 1 gives
    // 0.2 + 0.2 = 0.4, Attested by score, but no confirm counts: Unverified.
    const zeroWitnesses = (did: string): number => did.includes('author') ? 1 : 0
    const result = computeTrust({ ...input({ rep: 0, attestations: confirms(3) }), reputation: zeroWitnesses }, { policy: 'isnad-reputation' })
    expect(result.level_basis, 'basis').toMatchObject({ evidence_level: 'Unverified', set_by: 'evidence' })
  })

  it('TrustResultSchema refuses a level that is not the lower of the two bands', () => {
    const result = computeTrust(input({ rep: 1 }))
    expect(TrustResultSchema.safeParse({ ...result, level: 'Attested' }).success, 'a confident level the evidence does not allow').toBe(false)
  })

  it('isnad-reputation does not count a confirm by a witness the author vouches for', () => {
    const endorses = (from: string, to: string): boolean => from === 'author' && to === 'c-witness-1'
    const base = input({ rep: 1, attestations: confirms(1) })
    const independent = computeTrust(base, { policy: 'isnad-reputation' })
    const mutual = computeTrust({ ...base, endorses }, { policy: 'isnad-reputation' })
    expect(independent.level, 'an independent confirm: Attested').toBe('Attested')
    expect(mutual.level, 'a vouched-for confirm: Unverified').toBe('Unverified')
    expect(mutual.counted.attestations[0]?.note, 'the note says why').toContain('mutual vouching')
  })

  it('a memory its reputable witnesses dispute as much as they confirm is contested, not Attested', () => {
    const result = computeTrust(input({ rep: 1, attestations: [...confirms(1), ...confirms(1, 'dispute', 'd')] }), { policy: 'isnad-reputation' })
    expect(result.level).toBe('Unverified')
    expect(result.level_basis?.reason).toContain('contested')
  })
})
