import { describe, expect, it } from 'vitest'
import { confidence95, tQuantile975 } from '../../src/index.js'

/*
 * The 95 % confidence interval of a mean over seeds (src/sim/driver/confidence.ts): Student's t
 * quantiles against published values (R's qt(0.975, df)) inside and beyond the table, and intervals
 * worked by hand, cut to [0, 1].
 */

describe('Student\'s t at 0.975', () => {
  it.each([
    [1, 12.7062], [2, 4.3027], [3, 3.1824], [9, 2.2622], [30, 2.0423],
    // beyond the table: the Cornish–Fisher expansion
    [31, 2.0395], [40, 2.0211], [60, 2.0003], [120, 1.9799], [1000, 1.9623]
  ])('df %i: %f', (df, t) => {
    expect(tQuantile975(df)).toBeCloseTo(t, 3)
  })

  it('refuses degrees of freedom that are not a whole number from 1', () => {
    for (const df of [0, -1, 2.5, Number.NaN]) expect(() => tQuantile975(df), String(df)).toThrow(RangeError)
  })
})

describe('confidence95', () => {
  it('is mean ± t · s / √n', () => {
    // mean 0.7, s 0.2, n 3: 0.7 ± 4.3027 · 0.2 / √3 = 0.7 ± 0.4968 (cut at 1)
    expect(confidence95([0.5, 0.7, 0.9])).toEqual({ low: 0.2032, high: 1 })
    // mean 0.5, s = √(0.025 / 4) = 0.0791, n 5: 0.5 ± 2.7764 · 0.0791 / √5 = 0.5 ± 0.0982
    expect(confidence95([0.4, 0.45, 0.5, 0.55, 0.6])).toEqual({ low: 0.4018, high: 0.5982 })
    // two seeds: t(1) = 12.71, so the interval spans almost everything
    expect(confidence95([0.9, 0.95])).toEqual({ low: 0.6073, high: 1 })
  })

  it('is the mean itself when the seeds agree, and none below two seeds', () => {
    expect(confidence95([0.8, 0.8, 0.8])).toEqual({ low: 0.8, high: 0.8 })
    expect(confidence95([0.3])).toBeNull()
    expect(confidence95([])).toBeNull()
  })

  it('is cut to [0, 1]: every metric it describes is a share or an AUC', () => {
    expect(confidence95([0, 0.05, 0.1])?.low).toBe(0)
    expect(confidence95([0.95, 1, 1])?.high).toBe(1)
  })
})
