import { describe, expect, it } from 'vitest'
import { exposureOf, referenceRankOf, standingOf, voteWeightOf } from '../../../src/reputation/standing.js'
import { REFERENCE_MASS_SHARE } from '../../../src/reputation/constants.js'

/*
 * The standing of docs/trust.md §3: min(1, (π/x)/ρ_ref), x the exposure (out-weight, at least 1) and
 * ρ_ref the rank per exposure at which the agents ordered by it hold REFERENCE_MASS_SHARE of the
 * non-root mass. Figures by hand.
 */

describe('standing', () => {
  it('is the rank per unit of exposure against the reference, 1 for roots, 0 without rank', () => {
    expect(REFERENCE_MASS_SHARE).toBe(0.97)
    // Agent 0 is the root. Ranks and out-weights:
    const rank = Float64Array.from([0.4, 0.2, 0.1, 0.04, 0.001, 0])
    const exposure = exposureOf({ outWeight: Float64Array.from([5, 40, 1, 0.5, 0, 0]) })
    expect([...exposure]).toEqual([5, 40, 1, 1, 1, 1])
    // Rank per exposure: 1 → 0.005, 2 → 0.1, 3 → 0.04, 4 → 0.001. Ordered: 2 (mass 0.1), 3 (0.04),
    // 1 (0.2), 4 (0.001); total 0.341, 97% = 0.33077, reached at agent 1: ρ_ref = 0.005.
    const reference = referenceRankOf(rank, [0], exposure)
    expect(reference).toBeCloseTo(0.005, 15)
    const standing = standingOf(rank, [0], exposure, reference)
    expect([...standing].map((s) => Math.round(s * 1e9) / 1e9)).toEqual([1, 1, 1, 1, 0.2, 0])
    // By raw rank agent 1 (0.2) would stand 200 times above agent 4; per exposure, 5 times.
  })

  it('reads an agent by its rank per record: seen on five times the records with five times the rank, the same standing', () => {
    const reference = 0.01
    const few = standingOf(Float64Array.from([0.5, 0.004]), [0], exposureOf({ outWeight: Float64Array.from([3, 1]) }), reference)
    const many = standingOf(Float64Array.from([0.5, 0.02]), [0], exposureOf({ outWeight: Float64Array.from([3, 5]) }), reference)
    expect(few[1]).toBeCloseTo(0.4, 12)
    expect(many[1]).toBeCloseTo(0.4, 12)
  })

  it('weighs a vote in the debit by the rank per exposure over the reference, uncapped, the roots as the heaviest agent', () => {
    // The figures of the first case: ρ_ref = 0.005; rank per exposure 1 → 0.005, 2 → 0.1, 3 → 0.04,
    // 4 → 0.001, 5 → 0. Agent 2 weighs 20 where its standing is capped at 1: a ring that spreads a
    // little rank over many votes stands near 1 per vote, but weighs in all only its rank over ρ_ref.
    const rank = Float64Array.from([0.4, 0.2, 0.1, 0.04, 0.001, 0])
    const exposure = exposureOf({ outWeight: Float64Array.from([5, 40, 1, 0.5, 0, 0]) })
    const weight = voteWeightOf(rank, [0], exposure)
    expect([...weight].map((w) => Math.round(w * 1e9) / 1e9)).toEqual([20, 1, 20, 8, 0.2, 0])
    expect([...voteWeightOf(Float64Array.from([1, 0, 0]), [0], Float64Array.from([1, 1, 1]))]).toEqual([0, 0, 0])
  })

  it('has no reference when nobody but the roots is ranked', () => {
    expect(referenceRankOf(Float64Array.from([1, 0, 0]), [0], Float64Array.from([1, 1, 1]))).toBe(Infinity)
  })
})
