/*
 * 95 % confidence intervals of a mean over seeds (docs/simulation.md, "The report"): Student's t,
 * mean ± t(0.975, n − 1) · sd / √n, the interval a researcher expects for a handful of independent
 * runs. Every metric it is used on is a share or an AUC, so the interval is cut to [0, 1]. Pure.
 */

/** Student's t at 0.975 for 1–30 degrees of freedom (any statistics table; R's qt(0.975, df)). */
const T975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
  2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
  2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423
] as const

/** The normal quantile at 0.975. */
const Z975 = 1.959964

/**
 * t(0.975, df): the table up to 30, above it the Cornish–Fisher expansion around the normal quantile
 * (within 1e-4 of the exact value from 30 degrees of freedom on).
 */
export function tQuantile975 (df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a whole number from 1, got ${df}`)
  const tabled = T975[df - 1]
  if (tabled !== undefined) return tabled
  const z = Z975
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
}

export interface ConfidenceInterval {
  low: number
  high: number
}

/** The 95 % interval of the mean of `values` (at least two), cut to [0, 1]; null below two values. */
export function confidence95 (values: readonly number[]): ConfidenceInterval | null {
  const n = values.length
  if (n < 2) return null
  const mean = values.reduce((a, b) => a + b, 0) / n
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1))
  const half = tQuantile975(n - 1) * sd / Math.sqrt(n)
  const round = (v: number): number => Math.round(v * 1e4) / 1e4
  return { low: round(Math.max(0, mean - half)), high: round(Math.min(1, mean + half)) }
}
