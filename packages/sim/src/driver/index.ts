export { cdfOf, cdfOfSorted, computeMetrics, percentilesOf, percentilesOfSorted, summaryRanks, type PolicyAccuracy, type RankedSample, type RunMetrics } from './metrics.js'
export { createObservations, type Observations } from './observations.js'
export { SimProgress, formatDuration, type RunLabel } from './progress.js'
export {
  resultsOf, runOnce, runScenario, runSweep, sweepOf, sweepRuns, trackedRun, type EngineName, type RunScenarioOptions, type RunnerName, type SimResults, type SweepOptions
} from './run.js'
export { median, percentile, rocAuc } from './stats.js'
export { scoreTrustView, trustPolicies, type TrustView } from './trust-views.js'
export type { NodeSpread, ShardingSummary } from './sharding.js'
export { SPREAD_METRICS, spreadOf, spreadsOf, type PolicySpread, type Spread, type SpreadMetric } from './spread.js'
export { confidence95, tQuantile975, type ConfidenceInterval } from './confidence.js'
export type { RunResult } from './run-result.js'
export { ORDER_STATISTIC_BUCKETS, selectRanks } from './order-statistics.js'
