import type { PolicyAccuracy } from './metrics.js'
import type { RunResult } from './run-result.js'
import { median } from './stats.js'
import { confidence95, type ConfidenceInterval } from './confidence.js'

/*
 * Figures over several seeds (`isnad sim run --seeds N`): for each point of the Sybil sweep and each
 * policy, every seed's value of each trust metric and their spread (n, min, median, max, mean and
 * sample standard deviation, and the 95 % confidence interval of the mean), so a reader sees how much
 * of a difference is the seed's. Runs with and without the witness checks are summarised apart. Pure.
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
  /** The 95 % confidence interval of the mean (Student's t, confidence.ts); null below two values. */
  ci95: ConfidenceInterval | null
}

export interface PolicySpread {
  /** Sybil nodes in these runs, and their share of all nodes. */
  sybils: number
  nodes: number
  sybilShare: number
  /** Whether these runs played the witness checks (false: the baseline without them). */
  checks: boolean
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
  if (n === 0) return { values: [...values], n, min: null, median: null, max: null, mean: null, sd: null, ci95: null }
  const mean = present.reduce((a, b) => a + b, 0) / n
  const sd = n < 2 ? null : Math.sqrt(present.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1))
  return {
    values: [...values],
    n,
    min: Math.min(...present),
    median: round(median(present)),
    max: Math.max(...present),
    mean: round(mean),
    sd: sd === null ? null : round(sd),
    ci95: confidence95(present)
  }
}

/**
 * One entry per (checks, Sybil count, policy): the runs with the checks first, then the baseline
 * without them; Sybil counts ascending, policies in the runs' order. A run that does not say whether
 * it played the checks played `checks` (the results' setting).
 */
export function spreadsOf (runs: readonly RunResult[], defaultPolicy: string, checks = true): PolicySpread[] {
  const groups = new Map<string, { checks: boolean, sybils: number, runs: RunResult[] }>()
  for (const run of runs) {
    const played = run.checks ?? checks
    const key = `${played ? 0 : 1}|${run.sybils}`
    const group = groups.get(key) ?? { checks: played, sybils: run.sybils, runs: [] }
    group.runs.push(run)
    groups.set(key, group)
  }
  const ordered = [...groups.values()].sort((a, b) => Number(b.checks) - Number(a.checks) || a.sybils - b.sybils)
  return ordered.flatMap(({ checks: played, sybils, runs: group }) => {
    const policies = group[0]?.metrics.trust.map((t) => t.policy) ?? []
    const nodes = group[0]?.nodes ?? 0
    return policies.map((policy) => {
      const accuracies = group.map((run) => run.metrics.trust.find((t) => t.policy === policy))
      const metrics = Object.fromEntries(SPREAD_METRICS.map((key) => [key, spreadOf(accuracies.map((a) => a?.[key] ?? null))])) as Record<SpreadMetric, Spread>
      return { sybils, nodes, sybilShare: nodes === 0 ? 0 : round(sybils / nodes), checks: played, policy, isDefault: policy === defaultPolicy, seeds: group.map((run) => run.seed ?? 0), metrics }
    })
  })
}
