export { Arrivals } from './arrivals.js'
export { isCircleRole, verdictOf, type PlannedVerdict } from './behaviour.js'
export {
  BUILTIN_SCENARIO_DIR, builtinScenarioNames, builtinScenarios, loadScenario, type ScenarioSummary
} from './builtin.js'
export {
  createPlan, isHonest, randomTopology, rolesOf, type Plan, type PlannedAnswer, type PlannedEvent, type PlannedMemory
} from './plan.js'
export {
  MAX_REAL_NODES, ROLES, ScenarioSchema, linkConditionsOf, nodeCount, parseScenario, parseScenarioText, readScenarioFile, withSybils, type Role, type Scenario, type ScenarioInput
} from './scenario.js'
export { createSimRandom, type SimRandom } from './seeded-random.js'
export { DEFAULT_FOLLOWS_PER_AGENT, DEFAULT_MAX_SHARDS, ShardingSchema, type ShardingSettings } from './sharding.js'
