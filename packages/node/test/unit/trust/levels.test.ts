import { describe, expect, it } from 'vitest'
import {
  ANCHORED_THRESHOLD, ATTESTED_THRESHOLD, CONSENSUS_THRESHOLD, computeTrust, roundTrustScore, trustLevelOf,
  type TrustInput, type TrustLevel, type TrustPolicy
} from '../../../src/trust/index.js'
import { anchors, confirms, fixedReputation, memoryEvidence, NOW } from './fixtures.js'

describe('trustLevelOf: the schema\'s "Trust Levels" table, a bound belongs to the higher level', () => {
  const cases: Array<[number, TrustLevel]> = [
    [0, 'Unverified'], [0.2999, 'Unverified'], [ATTESTED_THRESHOLD, 'Attested'], [0.5999, 'Attested'],
    [ANCHORED_THRESHOLD, 'Anchored'], [0.7999, 'Anchored'], [CONSENSUS_THRESHOLD, 'Consensus'], [1, 'Consensus']
  ]
  it.each(cases)('score %s is %s', (score, level) => {
    expect(trustLevelOf(score), `level of score ${score}`).toBe(level)
  })
})

function input (parts: Partial<TrustInput> & { rep: number }): TrustInput {
  const { rep, ...rest } = parts
  return { memory: memoryEvidence(), attestations: [], anchors: [], reputation: fixedReputation(rep), now: NOW, ...rest }
}

interface ScoreCase {
  name: string
  input: TrustInput
  score: number
  level: TrustLevel
  clampedFrom?: number
}

const scoreCases: ScoreCase[] = [
  // 0.2 signature + 0.2 × 0.4995 = 0.0999 → 0.2999, one ten-thousandth under Attested.
  { name: 'just under Attested', input: input({ rep: 0.4995 }), score: 0.2999, level: 'Unverified' },
  // 0.2 + 0.2 × 0.5 = 0.3: on the bound of the Attested band, but no witness confirmed it: Unverified.
  { name: 'exactly Attested by score, no witness', input: input({ rep: 0.5 }), score: 0.3, level: 'Unverified' },
  // 0.2 + 0.2 (1 confirm) + 0 = 0.4 with reputation 0: Attested by both rules.
  { name: 'one confirm, Attested', input: input({ rep: 0, attestations: confirms(1) }), score: 0.4, level: 'Attested' },
  // 0.2 signature + 0.3 for 3 confirms + 0.1 reputation = 0.6: on the Anchored bound, but no anchor: Attested.
  { name: 'exactly Anchored by score, no anchor', input: input({ rep: 0.5, attestations: confirms(3) }), score: 0.6, level: 'Attested' },
  // 0.2 + 0.2 (1 confirm) + 0.2 (1 anchor) + 0 = 0.6 with one confirm and one anchor: Anchored.
  { name: 'one confirm and one anchor, Anchored', input: input({ rep: 0, attestations: confirms(1), anchors: anchors(1) }), score: 0.6, level: 'Anchored' },
  // 0.2 + 0.3 + 0.3 (2 anchors) + 0 = 0.8. In doubles 0.2+0.2+0.1+0.2+0.1 is 0.7999999999999999:
  // without rounding to 4 decimals this memory would be Anchored, not Consensus.
  { name: 'exactly Consensus despite binary floating point', input: input({ rep: 0, attestations: confirms(3), anchors: anchors(2) }), score: 0.8, level: 'Consensus' },
  // 0.2 + 0.3 + 0.3 + 0.1 − 4 × 0.15 = 0.3, but the doubles sum to 0.29999999999999993: the rounding
  // keeps this memory Attested (see roundTrustScore).
  {
    name: 'exactly Attested despite binary floating point',
    input: input({ rep: 0.5, attestations: [...confirms(3), ...confirms(4, 'dispute', 'd')], anchors: anchors(2) }),
    score: 0.3,
    level: 'Attested'
  },
  // 0.2 × 0.7 is 0.13999999999999999 in doubles; the reputation points are rounded to 0.14.
  { name: 'reputation points rounded', input: input({ rep: 0.7 }), score: 0.34, level: 'Unverified' },
  { name: 'reputation 1/3', input: input({ rep: 1 / 3 }), score: 0.2667, level: 'Unverified' },
  // The algorithm's maximum is exactly 1: 0.2 + 0.3 + 0.3 + 0.2 × 1. Nothing to clamp.
  { name: 'maximum, not clamped', input: input({ rep: 1, attestations: confirms(5), anchors: anchors(4) }), score: 1, level: 'Consensus' },
  // The minimum without disputes is exactly 0: no signature, no evidence, reputation 0.
  { name: 'zero, not clamped', input: input({ rep: 0, memory: memoryEvidence({ signatureValid: false }) }), score: 0, level: 'Unverified' },
  // 0.2 + 0.1 − 7 × 0.15 = −0.75, clamped to 0 (the schema's `max(0.0, ...)`).
  { name: 'many disputes clamp to 0', input: input({ rep: 0.5, attestations: confirms(7, 'dispute', 'd') }), score: 0, level: 'Unverified', clampedFrom: -0.75 },
  // 0.2 + 0.3 + 0.1 − 0.15 = 0.45: disputes subtract even when confirms earned their bonus.
  { name: 'confirms and a dispute', input: input({ rep: 0.5, attestations: [...confirms(3), ...confirms(1, 'dispute', 'd')] }), score: 0.45, level: 'Attested' }
]

describe('computeTrust scores at the boundaries', () => {
  it.each(scoreCases)('$name', (c) => {
    const result = computeTrust(c.input)
    expect(result.points, `${c.name}: score`).toBe(c.score)
    expect(result.level, `${c.name}: level`).toBe(c.level)
    expect(result.clamped, `${c.name}: clamped`).toBe(c.clampedFrom === undefined ? undefined : true)
    expect(result.unclamped_score, `${c.name}: unclamped_score`).toBe(c.clampedFrom)
    const sum = roundTrustScore(result.contributions.reduce((total, x) => total + x.points, 0))
    expect(sum, `${c.name}: contributions sum to the unclamped score`).toBe(c.clampedFrom ?? c.score)
  })

  it('roundTrustScore never returns -0 (vitest and Object.is tell -0 from 0)', () => {
    expect(Object.is(roundTrustScore(-0), 0), 'round of -0').toBe(true)
    expect(Object.is(roundTrustScore(-0.00001), 0), 'round of -0.00001').toBe(true)
  })

  it('a custom policy scoring past 1 is clamped to 1 (isnad-v0.1 cannot: its maximum is exactly 1)', () => {
    const generous: TrustPolicy = {
      name: 'isnad-v0.1',
      description: 'test policy',
      score: () => ({ contributions: [{ factor: 'confirms', points: 1.25, reason: 'test' }], attestations: new Map(), countedConfirms: 3 })
    }
    const result = computeTrust(input({ rep: 0.5, anchors: anchors(1) }), { policy: generous })
    expect([result.points, result.clamped, result.unclamped_score], 'custom policy: clamped from 1.25').toStrictEqual([1, true, 1.25])
    expect(result.level, 'custom policy: level').toBe('Consensus')
  })
})
