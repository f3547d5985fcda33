/**
 * The model engine (docs/simulation.md, "The model engine"): the same scenario and plan as the real
 * engines, played in virtual time over a modelled network, with real records, the real verifier and
 * the real trust code at the observers. No libp2p, LevelDB or HTTP: 10,000 agents in minutes.
 */
export { EventQueue, type ScheduledEvent } from './queue.js'
export { ModelTopology, REPAIR, UNREACHABLE, hopsOf, repairsOf } from './topology.js'
export { LinkModel, GOSSIPSUB, HOP_PROCESSING_MS } from './links.js'
export { createFastRandom, type FastRandom } from './fast-random.js'
export { arrivalAt, playModel, MODEL_EPOCH_MS, SLOT, TRACKED_NODES, type CheckCounts, type ModelOptions, type ModelRun } from './engine.js'
export { PRIVATE_MIN_REPUTATION, REPUTATION_REFRESH_MINUTES, PrivateChecks } from './private-checks.js'
export { DRAW_SAMPLED, binomial, distinctPositions, drawProbability, memoryRandom, sampleDrawn, type AgentList, type DrawInput } from './draw-sampling.js'
export { MODEL_DRAW_DEFAULTS, privateCheckProbability, type DrawDefaults } from './draw-settings.js'
export { WitnessBudget, type BudgetLimits } from './witness-budget.js'
export { measureModel, type ModelMeasurement } from './measure.js'
export { fetchEvidence, type FetchedEvidence } from './evidence-fetch.js'
export { ShardLayout, followsOf } from './shard-layout.js'
export { judgedMemories, shardedMemoryDelivery, shardingNotes, shardingSummary, storedRecordsAt } from './shard-measure.js'
export { runModelOnce, runModelScenario, type ModelScenarioOptions } from './model-run.js'
export { defaultJobs, ModelRunThreads, type RunReply, type RunRequest } from './run-threads.js'
