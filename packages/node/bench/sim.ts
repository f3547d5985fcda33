import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChildPool, LocalPool, loadScenario, runScenario, writeResults, type PoolRequest } from 'isnad-sim'
import type { Figure } from './report.js'

/*
 * Benchmark 12: the built-in scenario bench-100 (100 real daemons in this process, 5
 * simulated minutes) from the first node started to the last trust score measured. Baseline, from
 * the same run: the activity span itself (5 simulated minutes at the scenario's time scale), which
 * a runner with free setup, settling and measurement would take; the ratio is the runner's overhead.
 * The daemons are spread over one worker thread per core (`isnad sim run --threads N`): one
 * JavaScript thread cannot use a second core, and 100 daemons need more than one.
 */

export interface SimBenchOptions {
  quick: boolean
  progress?: (text: string) => void
}

const TARGET_SECONDS = 180

export async function benchSim (options: SimBenchOptions): Promise<Figure[]> {
  const progress = options.progress ?? (() => {})
  const full = await loadScenario('bench-100')
  // --quick: the same scenario with 20 nodes and 1 simulated minute.
  const scenario = options.quick
    ? { ...full, durationMinutes: 1, nodes: { ...full.nodes, 'honest-author': 4, 'honest-witness': 12, 'lazy-witness': 2, sybil: 2 } }
    : full
  const say = (text: string): void => { progress(`12. ${text}`) }
  const threads = availableParallelism()
  const createPool = async (count: number, { privateCheckers }: PoolRequest): Promise<ChildPool | LocalPool> => threads > 1
    ? await ChildPool.start(count, threads, say, undefined, 'threads', privateCheckers)
    : await LocalPool.start({ count, ...(privateCheckers === undefined ? {} : { privateCheckers }) })
  const results = await runScenario(scenario, { runner: 'in-process', createPool, progress: say })
  const run = results.runs[0]
  if (run === undefined) throw new Error('the simulation produced no run')
  const written = await writeResults(results, join(tmpdir(), 'isnad-bench-sim'))
  say(`report: ${written.html}`)
  const m = run.metrics
  const trust = Object.fromEntries(m.trust.flatMap((t) => [[`auc ${t.policy}`, t.auc ?? Number.NaN], [`sybilMeanTrust ${t.policy}`, t.sybilMeanTrust ?? Number.NaN]]))
  return [{
    section: `12. simulation: scenario ${scenario.name}, ${run.nodes} daemons in one process over ${threads} thread${threads === 1 ? '' : 's'} (LevelDB, ledger, HTTP API, libp2p on 127.0.0.1), ${scenario.durationMinutes} simulated minutes at ${scenario.timeScale.realSecondsPerMinute} s each`,
    name: 'whole run: start nodes, connect, play, settle, measure trust at the observers',
    value: run.timings.totalSeconds,
    unit: 's',
    baseline: { name: 'the activity span alone', value: Math.round(run.timings.activitySeconds * 10) / 10, unit: 's' },
    ratio: run.timings.totalSeconds / run.timings.activitySeconds,
    target: { text: `< ${TARGET_SECONDS} s for 100 nodes and 5 simulated minutes`, met: !options.quick && run.timings.totalSeconds < TARGET_SECONDS },
    detail: {
      setupSeconds: Math.round(run.timings.setupSeconds * 10) / 10,
      settleSeconds: Math.round(run.timings.settleSeconds * 10) / 10,
      memories: m.memories.published,
      attestations: m.witness.roundTripMs.samples,
      memoryDelivery: m.delivery.memoryRatio ?? Number.NaN,
      attestationDelivery: m.delivery.attestationRatio ?? Number.NaN,
      gossipP50Ms: m.delivery.latencyMs.p50 ?? Number.NaN,
      gossipP99Ms: m.delivery.latencyMs.p99 ?? Number.NaN,
      witnessRoundTripP50Ms: m.witness.roundTripMs.p50 ?? Number.NaN,
      eventLoopLagP50Ms: run.driverLoad.eventLoopLagP50Ms,
      relinks: run.relinks,
      cpuPercent: run.driverLoad.cpuPercent,
      cpuMsPerNode: m.perNode?.cpuMsMean ?? Number.NaN,
      ...trust
    }
  }]
}
