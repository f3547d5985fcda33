import { describe, expect, it } from 'vitest'
import { LEVEL_GUIDE, levelGuideText } from '../../../src/mcp/level-guide.js'
import { evidenceLevelOf, lowerLevel, TRUST_LEVELS, trustLevelOf } from '../../../src/trust/index.js'

/*
 * The `weigh_memory` prompt must be true of the levels' definitions (docs/trust.md §1): each number
 * it states is checked here against src/trust's own functions, so a change to a band or to the
 * evidence a level needs fails here until the prompt says the same.
 */

const RANK = (level: string): number => TRUST_LEVELS.indexOf(level as (typeof TRUST_LEVELS)[number])

describe('the weigh_memory prompt\'s level guide', () => {
  it('covers every level, lowest first', () => {
    expect(LEVEL_GUIDE.map((g) => g.level)).toEqual([...TRUST_LEVELS])
  })

  for (const [i, guide] of LEVEL_GUIDE.entries()) {
    const next = LEVEL_GUIDE[i + 1]
    it(`${guide.level}: the score band it states is trustLevelOf's`, () => {
      expect(trustLevelOf(guide.minScore), guide.level).toBe(guide.level)
      if (guide.minScore > 0) expect(RANK(trustLevelOf(guide.minScore - 0.0001)), `${guide.level} starts at ${guide.minScore}`).toBeLessThan(RANK(guide.level))
      if (next !== undefined) expect(trustLevelOf(next.minScore - 0.0001), `${guide.level} ends below ${next.minScore}`).toBe(guide.level)
      else expect(trustLevelOf(1)).toBe(guide.level)
    })

    it(`${guide.level}: the least evidence it states is what evidenceLevelOf needs`, () => {
      const { confirms, anchors } = guide.needs
      expect(evidenceLevelOf({ confirms, anchors }), guide.level).toBe(guide.level)
      if (confirms > 0) expect(RANK(evidenceLevelOf({ confirms: confirms - 1, anchors })), `${guide.level} with a confirm less`).toBeLessThan(RANK(guide.level))
      if (anchors > 0) expect(RANK(evidenceLevelOf({ confirms, anchors: anchors - 1 })), `${guide.level} with an anchor less`).toBeLessThan(RANK(guide.level))
    })

    it(`${guide.level}: the prompt states its band, its evidence and its meaning`, () => {
      const row = levelGuideText().split('\n').find((line) => line.startsWith(`| ${guide.level} |`)) ?? ''
      expect(row).toContain(`| ${guide.means} |`)
      expect(row).toContain(next === undefined ? `| ${guide.minScore} to 1 |` : `| ${guide.minScore} to below ${next.minScore} |`)
      const { confirms, anchors } = guide.needs
      if (confirms > 0) expect(row).toContain(`${confirms} counted confirm`)
      if (anchors > 0) expect(row).toContain(`${anchors} verified anchor`)
      if (confirms === 0 && anchors === 0) expect(row).toContain('| nothing |')
    })
  }

  it('says the level is the lower of the two bands (TrustResultSchema refuses any other level)', () => {
    expect(levelGuideText()).toMatch(/the lower of two bands: the band its score \(0 to 1\) falls in, and the band its evidence allows/)
    expect(lowerLevel('Anchored', 'Unverified')).toBe('Unverified')
    expect(lowerLevel('Attested', 'Consensus')).toBe('Attested')
  })
})
