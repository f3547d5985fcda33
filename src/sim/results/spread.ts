import type { PolicyAccuracy, RunResult } from '../driver/index.js'
import { median } from '../driver/index.js'

/*
 * Figures over several seeds (`isnad sim run --seeds N`): for each point of the Sybil sweep and each
 * policy, every seed's value of each trust metric and their spread (n, min, median, max, mean and
 * sample standard deviation), so a reader sees how much of a difference is the seed's. Pure.
 */

/** The trust metrics summarised over seeds: PolicyAccuracy's numeric fields. */
export const SPREAD_METRICS = [
  'auc', 'falseAnchoredShare', 'falseAttestedShare', 'trueUnverifiedShare', 'meanTrustTrue', 'meanTrustFalse', 'sybilMeanTrust', 'sybilAttestedShare'
] as const satisfies ReadonlyArray<keyof PolicyAccuracy>
export type SpreadMetric = typeof SPREAD_METRICS[number]

export interface Spread {
  /** One per seed, in the order of `seeds`; null where the metric is undefined for that seed. */
  values: Array<number | null>
  /** Seeds with a value. */
  n: number
  min: number | null
  median: number | null
  max: number | null
  mean: number | null
  /** Sample standard deviation (n − 1); null below two values. */
  sd: number | null
}

export interface PolicySpread {
  /** Sybil nodes in these runs, and their share of all nodes. */
  sybils: number
  nodes: number
  sybilShare: number
  policy: string
  /** Whether `policy` is the node's default (SimResults.defaultPolicy). */
  isDefault: boolean
  /** The seeds, in the order of every `values`. */
  seeds: number[]
  metrics: Record<SpreadMetric, Spread>
}

function round (value: number): number {
  return Math.round(value * 1e4) / 1e4
}

export function spreadOf (values: ReadonlyArray<number | null>): Spread {
  const present = values.filter((v): v is number => v !== null)
  const n = present.length
  if (n === 0) return { values: [...values], n, min: null, median: null, max: null, mean: null, sd: null }
  const mean = present.reduce((a, b) => a + b, 0) / n
  const sd = n < 2 ? null : Math.sqrt(present.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1))
  return {
    values: [...values],
    n,
    min: Math.min(...present),
    median: round(median(present)),
    max: Math.max(...present),
    mean: round(mean),
    sd: sd === null ? null : round(sd)
  }
}

/** One entry per (Sybil count, policy), Sybil counts ascending, policies in the runs' order. */
export function spreadsOf (runs: readonly RunResult[], defaultPolicy: string): PolicySpread[] {
  const bySybils = new Map<number, RunResult[]>()
  for (const run of runs) bySybils.set(run.sybils, [...(bySybils.get(run.sybils) ?? []), run])
  return [...bySybils.keys()].sort((a, b) => a - b).flatMap((sybils) => {
    const group = bySybils.get(sybils) ?? []
    const policies = group[0]?.metrics.trust.map((t) => t.policy) ?? []
    const nodes = group[0]?.nodes ?? 0
    return policies.map((policy) => {
      const accuracies = group.map((run) => run.metrics.trust.find((t) => t.policy === policy))
      const metrics = Object.fromEntries(SPREAD_METRICS.map((key) => [key, spreadOf(accuracies.map((a) => a?.[key] ?? null))])) as Record<SpreadMetric, Spread>
      return { sybils, nodes, sybilShare: nodes === 0 ? 0 : round(sybils / nodes), policy, isDefault: policy === defaultPolicy, seeds: group.map((run) => run.seed ?? 0), metrics }
    })
  })
}
