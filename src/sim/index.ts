/**
 * Network simulation for researchers (DESIGN §6, docs/simulation.md): one scenario file, played on
 * real isnad nodes in one process, in child processes, or in containers; trust measured against the
 * ground truth; results as JSON, CSV and a self-contained HTML report.
 */
export { ROLES, ScenarioSchema, linkConditionsOf, parseScenario, parseScenarioText, readScenarioFile, nodeCount, withSybils, type Role, type Scenario, type ScenarioInput } from './scenario/scenario.js'
export { createPlan, rolesOf, randomTopology, type Plan, type PlannedMemory, type PlannedEvent, type PlannedAnswer } from './scenario/plan.js'
export { verdictOf, type PlannedVerdict } from './scenario/behaviour.js'
export { createSimRandom, type SimRandom } from './scenario/seeded-random.js'
export { rocAuc, percentile, median } from './driver/stats.js'
export { computeMetrics, type RunMetrics, type PolicyAccuracy } from './driver/metrics.js'
export { runScenario, runOnce, runSweep, sweepOf, resultsOf, trackedRun, type SimResults, type RunResult, type RunnerName, type EngineName, type RunScenarioOptions, type SweepOptions } from './driver/run.js'
export { spreadOf, spreadsOf, SPREAD_METRICS, type Spread, type PolicySpread, type SpreadMetric } from './results/spread.js'
export { runModelOnce, runModelScenario } from './model/index.js'
export { SimProgress, formatDuration, type RunLabel } from './driver/progress.js'
export { LocalPool } from './pools/local-pool.js'
export { ChildPool } from './pools/child-pool.js'
export { poolFactory, runnerOf, withTimeScale, THREADED_FROM_NODES, type PoolChoice } from './pools/pool-choice.js'
export { RemotePool } from './pools/remote-pool.js'
export type { NodePool, SimNodeInfo, NodeCounters } from './pools/pool.js'
export { writeResults, reportHtml, resultsCsv, plotFiles } from './results/report.js'
export { readResultsFile } from './results/results-file.js'
export { composeProject, writeComposeProject, projectName } from './pools/compose.js'
export { discoverNode, discoverNodes, readProjectToken, CONTROL_PORT } from './pools/container-discovery.js'
export { runContainerNode } from './pools/container-node.js'
export { loadScenario, builtinScenarioNames, builtinScenarios, BUILTIN_SCENARIO_DIR, type ScenarioSummary } from './scenario/builtin.js'
export { compareRuns, deliveryGaps, publishableMemories, AGREEMENT_METRICS, AGREEMENT_TOLERANCE, type Agreement, type AgreementMetric, type MetricDifference } from './results/agreement.js'
export { agreementTable, agreementSummary, agreementVerdict, type AgreementRow, type RowVerdict, type SlowerAttempt } from './results/agreement-table.js'
