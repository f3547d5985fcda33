import { describe, expect, it } from 'vitest'
import { TRUST_LEVELS, TrustResultSchema } from '../../../src/schema/index.js'
import { bottomOfLevel, computeTrust, explanationLines, formatTrustScore, topOfLevel, trustLevelOf } from '../../../src/trust/index.js'
import { anchors, confirms, fixedReputation, memoryEvidence, NOW } from './fixtures.js'

/*
 * One scale (docs/trust.md §1): the score is the points held within the level's band, so the score
 * names the level; the points keep the algorithm's value; people read 2 decimals rounded down.
 */

describe('one trust scale', () => {
  it('each band has a top and a bottom on the 4-decimal scale, and they name their level', () => {
    expect(TRUST_LEVELS.map(topOfLevel)).toEqual([0.2999, 0.5999, 0.7999, 1])
    expect(TRUST_LEVELS.map(bottomOfLevel)).toEqual([0, 0.3, 0.6, 0.8])
    for (const level of TRUST_LEVELS) {
      expect(trustLevelOf(topOfLevel(level)), level).toBe(level)
      expect(trustLevelOf(bottomOfLevel(level)), level).toBe(level)
      expect(trustLevelOf(Number(formatTrustScore(topOfLevel(level)))), `${level} printed`).toBe(level)
    }
  })

  it('prints 2 decimals rounded down, so a printed score never reads as the band above', () => {
    expect(['0.2999', '0.5999', '0.29', '0.3', '0.6', '0.4567', '1', '0'].map((s) => formatTrustScore(Number(s))))
      .toEqual(['0.29', '0.59', '0.29', '0.30', '0.60', '0.45', '1.00', '0.00'])
  })

  it('the walkthrough: 0.4 points unwitnessed read 0.29 Unverified; one confirm, 0.6 points, reads 0.59 Attested', () => {
    const unwitnessed = computeTrust({ memory: memoryEvidence(), attestations: [], anchors: [], reputation: fixedReputation(1), now: NOW }, { policy: 'isnad-reputation' })
    expect(unwitnessed).toMatchObject({ score: 0.2999, points: 0.4, level: 'Unverified', level_basis: { set_by: 'evidence' } })
    expect(unwitnessed.level_basis?.reason).toMatch(/; the score is held at 0\.2999, the top of Unverified$/)
    expect(explanationLines(unwitnessed)[0]?.text).toMatch(/^trust 0\.29 Unverified /)
    const confirmed = computeTrust({ memory: memoryEvidence(), attestations: confirms(1), anchors: [], reputation: fixedReputation(1), now: NOW }, { policy: 'isnad-reputation' })
    expect(confirmed).toMatchObject({ score: 0.5999, points: 0.6, level: 'Attested' })
  })

  it('leaves the score at the points when the evidence allows their band', () => {
    const consensus = computeTrust({ memory: memoryEvidence(), attestations: confirms(3), anchors: anchors(2), reputation: fixedReputation(1), now: NOW })
    expect(consensus).toMatchObject({ score: 1, points: 1, level: 'Consensus', level_basis: { set_by: 'both' } })
    const low = computeTrust({ memory: memoryEvidence(), attestations: confirms(1, 'dispute'), anchors: [], reputation: fixedReputation(0.5), now: NOW })
    expect(low.score).toBe(low.points)
  })

  it('a result whose score is above its points does not parse', () => {
    const result = computeTrust({ memory: memoryEvidence(), attestations: [], anchors: [], reputation: fixedReputation(1), now: NOW }, { policy: 'isnad-reputation' })
    expect(TrustResultSchema.safeParse({ ...result, score: 0.5 }).success).toBe(false)
  })
})
