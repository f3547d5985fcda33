import type { SimResults } from '../driver/index.js'
import { checksOf, defaultPolicyOf } from './results-findings.js'
import { SPREAD_METRICS, spreadsOf, type SpreadMetric } from '../driver/index.js'

/*
 * summary.csv: one row per (checks, Sybil count, policy) of a results file, each trust metric as its
 * mean over the seeds, the 95 % confidence interval of that mean (Student's t, confidence.ts; empty
 * with one seed) and the seeds' range: what a plot of the sweep needs, ready for a spreadsheet or R.
 * Computed from the runs, so an older results file gets one too.
 */

function snake (metric: SpreadMetric): string {
  return metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

const STATISTICS = ['mean', 'ci95_low', 'ci95_high', 'min', 'max'] as const

export const SUMMARY_COLUMNS = [
  'scenario', 'engine', 'checks', 'sybils', 'nodes', 'sybil_share', 'policy', 'is_default', 'seeds',
  ...SPREAD_METRICS.flatMap((m) => STATISTICS.map((s) => `${snake(m)}_${s}`))
]

/** A CSV cell: empty for a missing value, quoted when it holds a quote, comma or line break. */
export function csvCell (value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function summaryCsv (results: SimResults): string {
  // Runs that do not say whether they played the checks played what the file says.
  const runs = results.runs.map((run) => ({ ...run, checks: checksOf(results, run) }))
  const rows = spreadsOf(runs, defaultPolicyOf(results)).map((p) => [
    results.scenario.name, results.engine ?? 'nodes', p.checks, p.sybils, p.nodes, p.sybilShare, p.policy, p.isDefault, p.seeds.length,
    ...SPREAD_METRICS.flatMap((m) => {
      const s = p.metrics[m]
      return [s.mean, s.ci95?.low, s.ci95?.high, s.min, s.max]
    })
  ].map(csvCell).join(','))
  return [SUMMARY_COLUMNS.join(','), ...rows].join('\n') + '\n'
}
