/**
 * Network simulation for researchers (DESIGN §6, docs/simulation.md): one scenario file, played on
 * real isnad nodes in one process, in child processes, or in containers; trust measured against the
 * ground truth; results as JSON, CSV and a self-contained HTML report.
 */
export { ROLES, ScenarioSchema, linkConditionsOf, parseScenario, parseScenarioText, readScenarioFile, nodeCount, withSybils, type Role, type Scenario, type ScenarioInput } from './scenario.js'
export { createPlan, rolesOf, randomTopology, type Plan, type PlannedMemory, type PlannedEvent, type PlannedAnswer } from './plan.js'
export { verdictOf, type PlannedVerdict } from './behaviour.js'
export { createSimRandom, type SimRandom } from './random.js'
export { rocAuc, percentile, median } from './stats.js'
export { computeMetrics, type RunMetrics, type PolicyAccuracy } from './metrics.js'
export { runScenario, runOnce, runSweep, sweepOf, resultsOf, trackedRun, type SimResults, type RunResult, type RunnerName, type EngineName, type RunScenarioOptions, type SweepOptions } from './run.js'
export { spreadOf, spreadsOf, SPREAD_METRICS, type Spread, type PolicySpread, type SpreadMetric } from './spread.js'
export { runModelOnce, runModelScenario } from './model/index.js'
export { SimProgress, formatDuration, type RunLabel } from './progress.js'
export { LocalPool } from './local-pool.js'
export { ChildPool } from './child-pool.js'
export { poolFactory, runnerOf, withTimeScale, THREADED_FROM_NODES, type PoolChoice } from './pools.js'
export { RemotePool } from './remote-pool.js'
export type { NodePool, SimNodeInfo, NodeCounters } from './pool.js'
export { writeResults, reportHtml, resultsCsv, plotFiles } from './report.js'
export { readResultsFile } from './results-file.js'
export { composeProject, writeComposeProject, projectName } from './compose.js'
export { discoverNode, discoverNodes, readProjectToken, CONTROL_PORT } from './discovery.js'
export { runContainerNode } from './container-node.js'
export { loadScenario, builtinScenarioNames, builtinScenarios, BUILTIN_SCENARIO_DIR, type ScenarioSummary } from './builtin.js'
export { compareRuns, deliveryGaps, publishableMemories, AGREEMENT_METRICS, AGREEMENT_TOLERANCE, type Agreement, type AgreementMetric, type MetricDifference } from './agreement.js'
export { agreementTable, agreementSummary, agreementVerdict, type AgreementRow, type RowVerdict, type SlowerAttempt } from './agreement-table.js'
