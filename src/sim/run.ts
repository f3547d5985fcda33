import { performance } from 'node:perf_hooks'
import { drive } from './driver.js'
import type { LiveNodes } from './live-nodes.js'
import { computeMetrics, type RunMetrics } from './metrics.js'
import type { Observations } from './observations.js'
import { createPlan, type Plan } from './plan.js'
import { SimProgress } from './progress.js'
import type { NodePool } from './pool.js'
import { nodeCount, withSybils, type Role, type Scenario } from './scenario.js'
import { observeTrust, trustPolicies, type TrustView } from './trust-views.js'

/*
 * One scenario, start to finish: the plan, the nodes (from the runner's pool factory), the drive,
 * the measurements, and the Sybil sweep's extra runs. Results are plain JSON (results.ts writes them).
 */

export type RunnerName = 'in-process' | 'processes' | 'docker'

export interface RunResult {
  nodes: number
  sybils: number
  roles: Partial<Record<Role, number>>
  observers: number[]
  timings: Observations['timings'] & { totalSeconds: number }
  driverLoad: Observations['driverLoad']
  /** Planned links that dropped during the run and were redialled. */
  relinks: number
  metrics: RunMetrics
  notes: string[]
}

export interface SimResults {
  format: 'isnad-sim-results/1'
  scenario: Scenario
  runner: RunnerName
  policies: string[]
  generatedAt: string
  /** The scenario as written first, then one run per Sybil count of the sweep. */
  runs: RunResult[]
  /** Sybil influence as the Sybil count grows: one point per run and policy. */
  sybilCurve: Array<{ sybils: number, policy: string, sybilMeanTrust: number | null, sybilAttestedShare: number | null, falseAnchoredShare: number | null, auc: number | null }>
}

export interface RunScenarioOptions {
  runner: RunnerName
  /** Starts the nodes of one run. */
  createPool: (count: number) => Promise<NodePool>
  progress: (text: string) => void
  /** How far the current run's activity is, 0–1 (progress.ts: done/total and the ETA). */
  advance?: (share: number) => void
  /** The clock of `generatedAt` and of trust computation. @default Date.now */
  clock?: () => number
}

async function measure (plan: Plan, pool: NodePool, observations: Observations, nodes: LiveNodes, now: number): Promise<RunMetrics> {
  const online = observations.onlineAtEnd
  const memoryCounts = await Promise.all(online.map(async (i) => (await nodes.node(i).ops.status()).records.memory))
  const views: TrustView[] = []
  let meanRecordBytes = 0
  for (const observer of plan.observers.filter((i) => nodes.isOnline(i))) {
    const roots = [observer, ...plan.trustRoots].map((i) => nodes.agent(i))
    const observed = await observeTrust(nodes.node(observer).ops, roots, now)
    views.push(observed.view)
    meanRecordBytes = Math.max(meanRecordBytes, observed.meanRecordBytes)
  }
  const counters = await pool.counters()
  return computeMetrics({ plan, observations, views, memoryCounts, counters, meanRecordBytes, policies: trustPolicies().map((p) => p.name) })
}

export async function runOnce (scenario: Scenario, options: RunScenarioOptions): Promise<RunResult> {
  const started = performance.now()
  const plan = createPlan(scenario)
  const total = nodeCount(scenario.nodes)
  options.progress(`${scenario.name}: starting ${total} nodes (${options.runner})`)
  const pool = await options.createPool(total)
  let nodes: LiveNodes | undefined
  try {
    const driven = await drive({ scenario, plan, pool, progress: options.progress, ...(options.advance === undefined ? {} : { advance: options.advance }) })
    nodes = driven.nodes
    options.progress(`${scenario.name}: measuring trust at ${plan.observers.length} observers`)
    const metrics = await measure(plan, pool, driven.observations, driven.nodes, (options.clock ?? Date.now)())
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

/** The options of run `index` (1-based) of `tracker`'s runs: its progress lines say which run, phase, done/total and ETA. */
export function trackedRun (tracker: SimProgress, index: number, scenario: Scenario, options: RunScenarioOptions): RunScenarioOptions {
  tracker.startRun(index, { sybils: scenario.nodes.sybil, nodes: nodeCount(scenario.nodes), seed: scenario.seed })
  return { ...options, progress: (text) => { tracker.line(text) }, advance: (share) => { tracker.advance(share) } }
}

export async function runScenario (scenario: Scenario, options: RunScenarioOptions): Promise<SimResults> {
  const sweep = scenario.metrics.sybilSweep.filter((sybils) => sybils !== scenario.nodes.sybil)
  const tracker = new SimProgress(options.progress, 1 + sweep.length)
  const runs = [await runOnce(scenario, trackedRun(tracker, 1, scenario, options))]
  for (const [k, sybils] of sweep.entries()) {
    const swept = withSybils(scenario, sybils)
    runs.push(await runOnce(swept, trackedRun(tracker, k + 2, swept, options)))
  }
  return resultsOf(scenario, options.runner, runs, (options.clock ?? Date.now)())
}

/** The results document of finished runs. */
export function resultsOf (scenario: Scenario, runner: RunnerName, runs: RunResult[], now: number): SimResults {
  const sybilCurve = [...runs].sort((a, b) => a.sybils - b.sybils).flatMap((run) => run.metrics.trust.map((t) => ({
    sybils: run.sybils, policy: t.policy, sybilMeanTrust: t.sybilMeanTrust, sybilAttestedShare: t.sybilAttestedShare, falseAnchoredShare: t.falseAnchoredShare, auc: t.auc
  })))
  return {
    format: 'isnad-sim-results/1',
    scenario,
    runner,
    policies: trustPolicies().map((p) => p.name),
    generatedAt: new Date(now).toISOString(),
    runs,
    sybilCurve
  }
}
