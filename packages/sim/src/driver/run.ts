import { performance } from 'node:perf_hooks'
import { drive } from './driver.js'
import type { LiveNodes } from './live-nodes.js'
import { computeMetrics, type RunMetrics } from './metrics.js'
import type { Observations } from './observations.js'
import type { RunResult } from './run-result.js'
import {
  createPlan, type Plan, MAX_REAL_NODES, nodeCount, withSybils, type Role, type Scenario
} from '../scenario/index.js'
import { SimProgress } from './progress.js'
import type { NodePool, PoolRequest } from '../pools/index.js'
import { DEFAULT_TRUST_POLICY, IsnadError, WITNESS_DRAW, type WitnessDrawConstants } from 'isnad/engine'
import { spreadsOf, type PolicySpread } from './spread.js'
import { observeTrust, trustPolicies, type TrustView } from './trust-views.js'

/*
 * One scenario, start to finish: the plan, the nodes (from the runner's pool factory), the drive,
 * the measurements, and the Sybil sweep's extra runs. Results are plain JSON (results.ts writes them).
 */

export type RunnerName = 'in-process' | 'processes' | 'docker' | 'model'
/** Real nodes (any runner), or the model engine's virtual time (src/sim/model). */
export type EngineName = 'nodes' | 'model'

export interface SimResults {
  format: 'isnad-sim-results/1'
  scenario: Scenario
  runner: RunnerName
  /** Absent in results written before the model engine: those are 'nodes'. */
  engine?: EngineName
  policies: string[]
  /** The policy a node uses without configuration (src/trust DEFAULT_TRUST_POLICY when the run was made). */
  defaultPolicy?: string
  /** The seeds run, in order (one unless `--seeds N`). */
  seeds?: number[]
  /**
   * The witness checks the runs played (docs/simulation.md, "The witness draw"): the draw's settings,
   * and `sampled`, what the engine samples instead of computing (the model engine's drawn sets); null:
   * none (`isnad sim run --no-checks`). Absent in results written before the draw. With a baseline
   * some runs played without them: each run's `checks` says which.
   */
  checks?: (WitnessDrawConstants & { sampled: string | null }) | null
  generatedAt: string
  /**
   * For each seed in turn: the scenario as written, then one run per Sybil count of the sweep
   * (each run names its seed and Sybil count).
   */
  runs: RunResult[]
  /** Each (checks, Sybil count, policy) over the seeds: every seed's figure, their spread and 95 % interval (spread.ts). */
  spread?: PolicySpread[]
  /** Sybil influence as the Sybil count grows: one point per run (seed) and policy. */
  sybilCurve: Array<{ sybils: number, seed?: number, checks?: boolean, policy: string, sybilMeanTrust: number | null, sybilAttestedShare: number | null, falseAnchoredShare: number | null, auc: number | null }>
}

export interface RunScenarioOptions {
  runner: RunnerName
  /** Starts the nodes of one run. */
  createPool: (count: number, request: PoolRequest) => Promise<NodePool>
  /**
   * Every node runs the daemon's default witness checks (the draw, private checks); false: none
   * (`isnad sim run --no-checks`). @default true
   */
  checks?: boolean
  progress: (text: string) => void
  /** How far the current run's activity is, 0–1 (progress.ts: done/total and the ETA). */
  advance?: (share: number) => void
  /** The clock of `generatedAt` and of trust computation. @default Date.now */
  clock?: () => number
}

async function measure (plan: Plan, pool: NodePool, observations: Observations, nodes: LiveNodes, now: number, checks: boolean): Promise<RunMetrics> {
  const online = observations.onlineAtEnd
  const memoryCounts = await Promise.all(online.map(async (i) => (await nodes.node(i).ops.call('status', {})).records.memory))
  const views: TrustView[] = []
  let meanRecordBytes = 0
  for (const observer of plan.observers.filter((i) => nodes.isOnline(i))) {
    const roots = [observer, ...plan.trustRoots].map((i) => nodes.agent(i))
    const observed = await observeTrust(nodes.node(observer).ops, roots, now, { draws: checks })
    views.push(observed.view)
    meanRecordBytes = Math.max(meanRecordBytes, observed.meanRecordBytes)
  }
  const counters = await pool.counters()
  return computeMetrics({ plan, observations, views, memoryCounts, counters, meanRecordBytes, policies: trustPolicies().map((p) => p.name) })
}

export async function runOnce (scenario: Scenario, options: RunScenarioOptions): Promise<RunResult> {
  const started = performance.now()
  const total = nodeCount(scenario.nodes)
  if (total > MAX_REAL_NODES) {
    throw new IsnadError('USAGE', `${scenario.name} has ${total} nodes; real nodes stop at ${MAX_REAL_NODES}: run it with --engine model`)
  }
  const plan = createPlan(scenario)
  options.progress(`${scenario.name}: starting ${total} nodes (${options.runner})`)
  const checks = options.checks ?? true
  // Every daemon draws itself; private checks run on every node, or on none without the checks.
  const pool = await options.createPool(total, checks ? {} : { privateCheckers: [] })
  let nodes: LiveNodes | undefined
  try {
    const driven = await drive({ scenario, plan, pool, progress: options.progress, checks, ...(options.advance === undefined ? {} : { advance: options.advance }) })
    nodes = driven.nodes
    options.progress(`${scenario.name}: measuring trust at ${plan.observers.length} observers`)
    const metrics = await measure(plan, pool, driven.observations, driven.nodes, (options.clock ?? Date.now)(), checks)
    const roles: Partial<Record<Role, number>> = {}
    for (const role of plan.roles) roles[role] = (roles[role] ?? 0) + 1
    return {
      nodes: total,
      sybils: scenario.nodes.sybil,
      roles,
      observers: plan.observers,
      timings: { ...driven.observations.timings, totalSeconds: Math.round((performance.now() - started) / 100) / 10 },
      driverLoad: driven.observations.driverLoad,
      relinks: driven.observations.relinks,
      metrics,
      notes: driven.observations.notes
    }
  } finally {
    nodes?.close()
    await pool.close()
  }
}

/** The progress of run `index` (1-based) of `tracker`'s runs: its lines say which run, phase, done/total and ETA. */
export function trackedRun (tracker: SimProgress, index: number, scenario: Scenario, checks?: boolean): Pick<RunScenarioOptions, 'progress' | 'advance'> {
  tracker.startRun(index, { sybils: scenario.nodes.sybil, nodes: nodeCount(scenario.nodes), seed: scenario.seed, ...(checks === undefined ? {} : { checks }) })
  return { progress: (text) => { tracker.line(text, index) }, advance: (share) => { tracker.advance(share, index) } }
}

export async function runScenario (scenario: Scenario, options: RunScenarioOptions & { seeds?: number }): Promise<SimResults> {
  return await runSweep(scenario, { ...options, engine: 'nodes' }, async (s, tracked, checks) => await runOnce(s, { ...options, ...tracked, checks }))
}

/** The scenarios of a sweep over seeds and Sybil counts, in the order they run. */
export function sweepOf (scenario: Scenario, seeds = 1): Scenario[] {
  if (!Number.isInteger(seeds) || seeds < 1) throw new IsnadError('USAGE', `--seeds takes a whole number from 1, got ${seeds}`)
  return Array.from({ length: seeds }, (_, k) => ({ ...scenario, seed: scenario.seed + k })).flatMap((seeded) => [
    seeded,
    ...[...new Set(scenario.metrics.sybilSweep)].filter((n) => n !== scenario.nodes.sybil).map((n) => withSybils(seeded, n))
  ])
}

export interface SweepOptions {
  runner: RunnerName
  engine: EngineName
  progress: (text: string) => void
  /** Seeds s, s+1, …, s+seeds−1 of the scenario's seed s. @default 1 */
  seeds?: number
  clock?: () => number
  /** Whether the runs play the witness checks (recorded in the results). @default true */
  checks?: boolean
  /**
   * Also play every run without the checks, the baseline that shows what they buy (`isnad sim run
   * --baseline`; ignored without the checks). @default the scenario's `metrics.baseline`
   */
  baseline?: boolean
  /** What the engine samples instead of computing (the model engine's drawn sets), for the results. */
  sampled?: string
  /**
   * Runs played at once, for a `runOne` that plays elsewhere than on this thread (the model engine's
   * worker threads): they start largest first, and their results keep the sweep's order. @default 1
   */
  jobs?: number
}

/** The runs of a sweep in their order: each scenario of sweepOf, with the checks, then without them when the baseline is asked for. */
export function sweepRuns (scenario: Scenario, options: Pick<SweepOptions, 'seeds' | 'checks' | 'baseline'> = {}): Array<{ scenario: Scenario, checks: boolean }> {
  const checks = options.checks ?? true
  const modes = checks && (options.baseline ?? scenario.metrics.baseline) ? [true, false] : [checks]
  return sweepOf(scenario, options.seeds ?? 1).flatMap((s) => modes.map((played) => ({ scenario: s, checks: played })))
}

/**
 * Every run of a scenario's sweep (seeds × Sybil counts, each also without the checks when the
 * baseline is asked for) with `runOne`, and their results document. `runOne` gets the run's progress
 * callbacks (run k of n, phase, ETA) to pass on, and whether the run plays the checks.
 */
export async function runSweep (
  scenario: Scenario,
  options: SweepOptions,
  runOne: (scenario: Scenario, tracked: Pick<RunScenarioOptions, 'progress' | 'advance'>, checks: boolean) => Promise<RunResult>
): Promise<SimResults> {
  const checks = options.checks ?? true
  const plan = sweepRuns(scenario, options)
  const withBaseline = plan.some((run) => run.checks !== checks)
  const tracker = new SimProgress(options.progress, plan.length)
  const runs = new Array<RunResult>(plan.length)
  const play = async (k: number): Promise<void> => {
    const run = plan[k] as (typeof plan)[number]
    // Progress names the baseline's runs only where they run beside runs with the checks.
    const tracked = trackedRun(tracker, k + 1, run.scenario, withBaseline ? run.checks : undefined)
    runs[k] = { seed: run.scenario.seed, checks: run.checks, ...await runOne(run.scenario, tracked, run.checks) }
    tracker.finishRun(k + 1)
  }
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, plan.length))
  if (jobs === 1) {
    for (let k = 0; k < plan.length; k++) await play(k)
  } else {
    // Largest first, so the last runs to start are short ones and the jobs finish close together.
    const order = plan.map((_, k) => k).sort((a, b) => nodeCount((plan[b] as (typeof plan)[number]).scenario.nodes) - nodeCount((plan[a] as (typeof plan)[number]).scenario.nodes) || a - b)
    let next = 0
    const failures: unknown[] = []
    // A failed run stops the others from starting; those running finish before the first failure is thrown.
    const lane = async (): Promise<void> => {
      while (failures.length === 0 && next < order.length) await play(order[next++] as number).catch((err: unknown) => { failures.push(err) })
    }
    await Promise.all(Array.from({ length: jobs }, lane))
    if (failures.length > 0) throw failures[0]
  }
  return { ...resultsOf(scenario, options.runner, runs, (options.clock ?? Date.now)(), checks, options.sampled), engine: options.engine }
}

/** The results document of finished runs; `checks`: whether the runs that do not say played the checks. */
export function resultsOf (scenario: Scenario, runner: RunnerName, runs: RunResult[], now: number, checks = true, sampled?: string): SimResults {
  const sybilCurve = [...runs].sort((a, b) => a.sybils - b.sybils || (a.seed ?? 0) - (b.seed ?? 0)).flatMap((run) => run.metrics.trust.map((t) => ({
    sybils: run.sybils, ...(run.seed === undefined ? {} : { seed: run.seed }), checks: run.checks ?? checks, policy: t.policy, sybilMeanTrust: t.sybilMeanTrust, sybilAttestedShare: t.sybilAttestedShare, falseAnchoredShare: t.falseAnchoredShare, auc: t.auc
  })))
  return {
    format: 'isnad-sim-results/1',
    scenario,
    runner,
    engine: runner === 'model' ? 'model' : 'nodes',
    policies: trustPolicies().map((p) => p.name),
    defaultPolicy: DEFAULT_TRUST_POLICY,
    seeds: [...new Set(runs.map((r) => r.seed ?? scenario.seed))],
    checks: checks ? { ...WITNESS_DRAW, sampled: sampled ?? null } : null,
    generatedAt: new Date(now).toISOString(),
    runs,
    sybilCurve,
    spread: spreadsOf(runs, DEFAULT_TRUST_POLICY, checks)
  }
}
