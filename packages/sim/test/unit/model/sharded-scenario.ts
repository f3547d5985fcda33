import { parseScenario, type Scenario } from '../../../src/index.js'

/** 600 agents in 4 minutes: shardCountFor gives 4 shards of about 150 (the model's sharded unit tests). */
export function shardedScenario (name: string, sharding: Partial<Scenario['sharding']> = {}): Scenario {
  return parseScenario({
    name,
    seed: 31,
    durationMinutes: 4,
    nodes: { 'honest-author': 90, 'honest-witness': 420, sybil: 60, 'lazy-witness': 30 },
    requests: { memoriesPerAuthorPerMinute: 0.25, witnessesPerMemory: 3 },
    network: { latencyMs: 20, jitterMs: 5 },
    metrics: { observers: 4, trustRoots: 3 },
    sharding
  })
}
