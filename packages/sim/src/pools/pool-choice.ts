import { availableParallelism } from 'node:os'
import { ChildPool } from './child-pool.js'
import { LocalPool } from './local-pool.js'
import type { NodePool } from './pool.js'
import { splitPortRange, type PortRange } from './port-range.js'
import { linkConditionsOf, parseScenario, type Scenario } from '../scenario/index.js'

/*
 * How `isnad sim run` (and bench/sim-agree.ts, which must run the real nodes exactly as the command
 * does) starts one run's real nodes: in this process, over worker threads, or over child processes.
 */

/**
 * @default 50 — from this many nodes, a run without `threads` or `processes` spreads its nodes over
 * one worker thread per core: one JavaScript thread cannot keep up with 100 daemons' gossip
 * (BENCHMARKS.md figure 12), while a small network starts faster on one.
 */
export const THREADED_FROM_NODES = 50

export interface PoolChoice {
  /** Child processes to spread the nodes over; 1 or absent: none. */
  processes?: number
  /** Worker threads to spread the nodes over (ignored with processes > 1). @default one per core from THREADED_FROM_NODES nodes, else 1 */
  threads?: number
  /** Every node's libp2p and API ports from this range (`--port-range`). @default any free ports */
  portRange?: PortRange
  progress: (text: string) => void
}

/** The runner's name in the results for a choice. */
export function runnerOf (choice: Pick<PoolChoice, 'processes'>): 'processes' | 'in-process' {
  return (choice.processes ?? 1) > 1 ? 'processes' : 'in-process'
}

/** What a run asks of its pool besides the node count (src/sim/driver run.ts). */
export interface PoolRequest {
  /** The nodes whose daemons run private checks (LocalPoolOptions.privateCheckers). @default every node */
  privateCheckers?: readonly number[]
}

/** The pool factory of a run of `scenario`: latency and loss on every link between its nodes. */
export function poolFactory (scenario: Scenario, choice: PoolChoice): (count: number, request?: PoolRequest) => Promise<NodePool> {
  return async (count, request = {}) => {
    const privateCheckers = request.privateCheckers
    const link = linkConditionsOf(scenario)
    const { kind, parts } = spreadOf(choice, count)
    if (kind !== 'in-process') return await ChildPool.start(count, parts, choice.progress, link, kind, privateCheckers, choice.portRange)
    return await LocalPool.start({ count, progress: choice.progress, ...(link === undefined ? {} : { linkConditions: link }), ...(privateCheckers === undefined ? {} : { privateCheckers }), ...(choice.portRange === undefined ? {} : { portRange: choice.portRange }) })
  }
}

/** Where a run of `count` nodes goes: child processes, worker threads, or this thread alone. */
function spreadOf (choice: PoolChoice, count: number): { kind: 'processes' | 'threads' | 'in-process', parts: number } {
  const processes = choice.processes ?? 1
  if (processes > 1) return { kind: 'processes', parts: Math.min(processes, count) }
  const threads = choice.threads ?? (count >= THREADED_FROM_NODES ? availableParallelism() : 1)
  return threads > 1 ? { kind: 'threads', parts: Math.min(threads, count) } : { kind: 'in-process', parts: 1 }
}

/**
 * Refuses (USAGE) a port range too small for the largest run of a sweep, before any node starts: a
 * sweep's later, larger runs must not fail after its first ones have run.
 */
export function checkPortRange (range: PortRange, choice: PoolChoice, nodeCounts: readonly number[]): void {
  for (const count of nodeCounts) splitPortRange(range, spreadOf(choice, count).parts, count)
}

/**
 * `scenario` with its schedule played at `realSecondsPerMinute` real seconds per simulated minute:
 * a loaded machine needs a slower schedule for full delivery, without editing the scenario's file.
 * Checked as the file's own value is (SCHEMA_INVALID outside (0, 3600]).
 */
export function withTimeScale (scenario: Scenario, realSecondsPerMinute: number | undefined): Scenario {
  return realSecondsPerMinute === undefined ? scenario : parseScenario({ ...scenario, timeScale: { realSecondsPerMinute } })
}
