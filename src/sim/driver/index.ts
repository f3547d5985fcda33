export { cdfOf, cdfOfSorted, computeMetrics, percentilesOf, percentilesOfSorted, type PolicyAccuracy, type RunMetrics } from './metrics.js'
export { createObservations, type Observations } from './observations.js'
export { SimProgress, formatDuration, type RunLabel } from './progress.js'
export {
  resultsOf, runOnce, runScenario, runSweep, sweepOf, trackedRun, type EngineName, type RunResult, type RunScenarioOptions, type RunnerName, type SimResults, type SweepOptions
} from './run.js'
export { median, percentile, rocAuc } from './stats.js'
export { scoreTrustView, trustPolicies, type TrustView } from './trust-views.js'
export type { NodeSpread, ShardingSummary } from './sharding.js'
