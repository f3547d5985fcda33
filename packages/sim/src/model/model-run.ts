import { performance } from 'node:perf_hooks'
import { createPlan, nodeCount, type Role, type Scenario } from '../scenario/index.js'
import { runSweep, type RunResult, type SimResults } from '../driver/index.js'
import { playModel, type ModelOptions } from './engine.js'
import { DRAW_SAMPLED } from './draw-sampling.js'
import { measureModel } from './measure.js'
import { shardingNotes } from './shard-measure.js'

/** One run of a scenario on the model engine, as a RunResult like the real engines'. */
export function runModelOnce (scenario: Scenario, progress: (text: string) => void, options: ModelOptions = {}): RunResult {
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  const plan = createPlan(scenario)
  const played = playModel(scenario, plan, progress, options)
  progress(`model: measuring trust at ${plan.observers.length} observers`)
  const measured = measureModel(played)
  const roles: Partial<Record<Role, number>> = {}
  for (const role of plan.roles) roles[role] = (roles[role] ?? 0) + 1
  const wall = performance.now() - started
  const cpu = process.cpuUsage(cpuStart)
  const notes = [
    ...played.notes,
    ...shardingNotes(played),
    `model engine: ${played.events} events in virtual time; delivery and latency measured at ${played.tracked.length} of ${plan.roles.length} nodes; ${measured.verifications.count} signatures verified (${(measured.verifications.ms / Math.max(1, measured.verifications.count) * 1000).toFixed(0)} µs each, ${'node:crypto'})`
  ]
  return {
    nodes: nodeCount(scenario.nodes),
    sybils: scenario.nodes.sybil,
    roles,
    observers: plan.observers,
    timings: {
      setupSeconds: round1(played.timings.setupSeconds),
      activitySeconds: round1(played.timings.activitySeconds),
      settleSeconds: round1(measured.settleSeconds),
      totalSeconds: round1(wall / 1000)
    },
    driverLoad: { eventLoopLagP50Ms: 0, eventLoopLagMaxMs: 0, cpuPercent: Math.round((cpu.user + cpu.system) / 10 / wall) },
    relinks: 0,
    metrics: measured.metrics,
    sharding: measured.sharding,
    notes
  }
}

function round1 (value: number): number {
  return Math.round(value * 10) / 10
}

/** A scenario's whole sweep (seeds × Sybil counts) on the model engine. */
/** `checks`: every node runs the default witness checks, as daemons do (false: `isnad sim run --no-checks`). @default true */
/** `baseline`: every run also without the checks (SweepOptions). */
export async function runModelScenario (scenario: Scenario, options: { progress: (text: string) => void, seeds?: number, clock?: () => number, checks?: boolean, baseline?: boolean }): Promise<SimResults> {
  return await runSweep(scenario, { runner: 'model', engine: 'model', ...options, sampled: DRAW_SAMPLED }, async (s, tracked, checks) => runModelOnce(s, tracked.progress, { checks }))
}
