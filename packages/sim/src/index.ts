/**
 * Network simulation for researchers (docs/simulation.md): one scenario file, played on
 * real isnad nodes in one process, in child processes, or in containers; trust measured against the
 * ground truth; results as JSON, CSV and a self-contained HTML report.
 */
export { ROLES, ScenarioSchema, linkConditionsOf, parseScenario, parseScenarioText, readScenarioFile, nodeCount, withSybils, type Role, type Scenario, type ScenarioInput } from './scenario/index.js'
export { createPlan, rolesOf, randomTopology, type Plan, type PlannedMemory, type PlannedEvent, type PlannedAnswer } from './scenario/index.js'
export { verdictOf, type PlannedVerdict } from './scenario/index.js'
export { createSimRandom, type SimRandom } from './scenario/index.js'
export { rocAuc, percentile, median } from './driver/index.js'
export { computeMetrics, type RunMetrics, type PolicyAccuracy } from './driver/index.js'
export { runScenario, runOnce, runSweep, sweepOf, sweepRuns, resultsOf, trackedRun, type SimResults, type RunResult, type RunnerName, type EngineName, type RunScenarioOptions, type SweepOptions } from './driver/index.js'
export { spreadOf, spreadsOf, SPREAD_METRICS, type Spread, type PolicySpread, type SpreadMetric } from './driver/index.js'
export { runModelOnce, runModelScenario, defaultJobs, type ModelScenarioOptions } from './model/index.js'
export { SimProgress, formatDuration, type RunLabel } from './driver/index.js'
export { LocalPool } from './pools/index.js'
export { ChildPool } from './pools/index.js'
export { poolFactory, runnerOf, withTimeScale, THREADED_FROM_NODES, type PoolChoice, type PoolRequest } from './pools/index.js'
export { checkPortRange, parsePortRange, splitPortRange, PortAllocator, PORTS_PER_NODE, type PortRange } from './pools/index.js'
export { RemotePool } from './pools/index.js'
// Meshes of nodes on loopback, shared with the node's network benchmarks.
export { dialAll, meshesConnected, meshesReady, sleep, waitFor, waitForMeshes, type NodeMesh } from './pools/index.js'
export type { NodePool, SimNodeInfo, NodeCounters } from './pools/index.js'
export { writeResults, reportHtml, resultsCsv, summaryCsv, plotFiles, GLOSSARY, glossaryEntryOf, type GlossaryEntry } from './results/index.js'
export { confidence95, tQuantile975 } from './driver/index.js'
export { readResultsFile } from './results/index.js'
export { composeProject, writeComposeProject, projectName } from './pools/index.js'
export { discoverNode, discoverNodes, readProjectToken, CONTROL_PORT } from './pools/index.js'
export { runContainerNode } from './pools/index.js'
export { loadScenario, builtinScenarioNames, builtinScenarios, BUILTIN_SCENARIO_DIR, type ScenarioSummary } from './scenario/index.js'
export { compareRuns, deliveryGaps, publishableMemories, AGREEMENT_METRICS, AGREEMENT_TOLERANCE, type Agreement, type AgreementMetric, type MetricDifference } from './results/index.js'
export { agreementTable, agreementSummary, agreementVerdict, type AgreementRow, type RowVerdict, type SlowerAttempt } from './results/index.js'
