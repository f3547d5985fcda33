import { performance } from 'node:perf_hooks'
import { createPlan, nodeCount, type Role, type Scenario } from '../scenario/index.js'
import { runSweep, sweepRuns, type RunResult, type SimResults, type SweepOptions } from '../driver/index.js'
import { playModel, type ModelOptions } from './engine.js'
import { DRAW_SAMPLED } from './draw-sampling.js'
import { measureModel } from './measure.js'
import { shardingNotes } from './shard-measure.js'
import { ModelRunThreads } from './run-threads.js'

/** One run of a scenario on the model engine, as a RunResult like the real engines'. */
export function runModelOnce (scenario: Scenario, progress: (text: string) => void, options: ModelOptions = {}): RunResult {
  const started = performance.now()
  const cpuStart = threadCpuUsage()
  const plan = createPlan(scenario)
  const played = playModel(scenario, plan, progress, options)
  progress(`model: measuring trust at ${plan.observers.length} observers`)
  const measured = measureModel(played)
  const roles: Partial<Record<Role, number>> = {}
  for (const role of plan.roles) roles[role] = (roles[role] ?? 0) + 1
  const wall = performance.now() - started
  const cpu = threadCpuUsage(cpuStart)
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

/** This thread's CPU time (a run on a worker thread shares its process with the others). */
function threadCpuUsage (since?: NodeJS.CpuUsage): NodeJS.CpuUsage {
  return typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage(since) : process.cpuUsage(since)
}

/** How a model sweep runs (SweepOptions): `jobs` runs at once, each on a worker thread (run-threads.ts), 1 (the default) one after the other on this thread; the results are the same either way. */
export type ModelScenarioOptions = Pick<SweepOptions, 'progress' | 'seeds' | 'clock' | 'checks' | 'baseline' | 'jobs'>

/** A scenario's whole sweep (seeds × Sybil counts) on the model engine. */
export async function runModelScenario (scenario: Scenario, options: ModelScenarioOptions): Promise<SimResults> {
  const { jobs: asked, ...rest } = options
  const sweep = { runner: 'model', engine: 'model', ...rest, sampled: DRAW_SAMPLED } as const
  const jobs = Math.min(asked ?? 1, sweepRuns(scenario, options).length)
  if (jobs <= 1) return await runSweep(scenario, sweep, async (s, tracked, checks) => runModelOnce(s, tracked.progress, { checks }))
  const threads = new ModelRunThreads(jobs)
  try {
    return await runSweep(scenario, { ...sweep, jobs }, async (s, tracked, checks) => await threads.run(s, checks, tracked.progress))
  } finally {
    await threads.close()
  }
}
