import type { Role } from '../scenario/index.js'
import type { RunMetrics } from './metrics.js'
import type { Observations } from './observations.js'
import type { ShardingSummary } from './sharding.js'

/** One run of a scenario: one seed, one Sybil count (run.ts makes it; results/ reads it). */
export interface RunResult {
  /** The scenario's seed for this run (`--seeds N` runs seeds s, s+1, …, s+N−1). Absent in older results. */
  seed?: number
  /**
   * Whether the run played the witness checks every node runs by default (false: the baseline of
   * `isnad sim run --baseline` or `--no-checks`). Absent in older results: the results' `checks` says.
   */
  checks?: boolean
  nodes: number
  sybils: number
  roles: Partial<Record<Role, number>>
  observers: number[]
  timings: Observations['timings'] & { totalSeconds: number }
  driverLoad: Observations['driverLoad']
  /** Planned links that dropped during the run and were redialled. */
  relinks: number
  metrics: RunMetrics
  /** The shards the model engine played and their cost per node (sharding.ts); absent on real nodes. */
  sharding?: ShardingSummary
  notes: string[]
}
