import { describe, expect, it } from 'vitest'
import { loadScenario, runModelScenario, runSweep, sweepOf, type RunResult, type Scenario, type SimResults } from '../../../src/index.js'
import { ModelRunThreads, runModelOnce } from '../../../src/model/index.js'

/*
 * The model engine's sweep on worker threads (src/model/run-threads.ts): the same results document
 * as the runs played one after the other on one thread, run for run in the sweep's order, whatever
 * the number of threads; and a run that fails on a thread fails its own promise only.
 */

const quiet = (): void => {}

// The built-in small network (12 nodes, 2 Sybils) swept over 0 and 4 Sybils: runs of 10, 12 and 14 nodes.
const small = await loadScenario('small')
const SWEEP: Scenario = { ...small, metrics: { ...small.metrics, sybilSweep: [0, 4] } }

/** A run without what the machine's speed sets: wall times, CPU share, the verifier's µs, CPU per node. */
function measured (run: RunResult): unknown {
  const { timings: _timings, driverLoad: _load, notes, metrics, ...rest } = run
  const { perNode, ...figures } = metrics
  return {
    ...rest,
    metrics: { ...figures, perNode: perNode === null ? null : { ...perNode, cpuMsMean: 0 } },
    notes: notes.map((note) => note.replace(/\(\d+ µs each/, '(… µs each'))
  }
}

function document (results: SimResults): unknown {
  const { generatedAt: _at, runs, ...rest } = results
  return { ...rest, runs: runs.map(measured) }
}

describe('the model engine\'s sweep on worker threads', () => {
  it('gives the one-thread results, run for run in the sweep\'s order', async () => {
    const serial = await runModelScenario(SWEEP, { progress: quiet, seeds: 2, jobs: 1 })
    const order = sweepOf(SWEEP, 2).map((s) => [s.seed, s.nodes.sybil])
    expect(serial.runs.map((r) => [r.seed, r.sybils])).toEqual(order)
    const lines: string[] = []
    // Two threads for six runs of three sizes, the largest first: they finish out of the sweep's order.
    const threaded = await runModelScenario(SWEEP, { progress: (line) => { lines.push(line) }, seeds: 2, jobs: 2 })
    expect(threaded.runs.map((r) => [r.seed, r.sybils])).toEqual(order)
    expect(document(threaded)).toEqual(document(serial))
    // Every run's lines name it.
    for (let k = 1; k <= order.length; k++) expect(lines.some((line) => line.startsWith(`run ${k} of ${order.length} · `)), `run ${k}`).toBe(true)
  }, 120_000)

  it('starts the largest runs first and keeps the sweep\'s order in the results', async () => {
    const started: number[] = []
    const finish: Array<() => void> = []
    const results = runSweep(SWEEP, { runner: 'model', engine: 'model', progress: quiet, seeds: 2, jobs: 2 }, async (s) => {
      started.push(s.nodes.sybil)
      // Each run waits to be released, so the runs in flight are the jobs' own.
      await new Promise<void>((resolve) => { finish.push(resolve) })
      return runModelOnce(s, quiet)
    })
    // Sizes 12 (the scenario as written), 10, 14 per seed: the two 14s start first.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toEqual([4, 4])
    while (finish.length > 0) {
      finish.splice(0).reverse().forEach((release) => { release() })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(started).toEqual([4, 4, 2, 2, 0, 0])
    expect((await results).runs.map((r) => [r.seed, r.sybils])).toEqual(sweepOf(SWEEP, 2).map((s) => [s.seed, s.nodes.sybil]))
  }, 120_000)

  it('plays a run as runModelOnce does, and fails only the run that fails', async () => {
    const threads = new ModelRunThreads(1)
    try {
      const broken = threads.run({ ...SWEEP, nodes: undefined } as unknown as Scenario, true, quiet)
      const fine = threads.run(SWEEP, false, quiet)
      await expect(broken).rejects.toThrow()
      expect(measured(await fine)).toEqual(measured(runModelOnce(SWEEP, quiet, { checks: false })))
    } finally {
      await threads.close()
    }
    await expect(threads.run(SWEEP, true, quiet)).rejects.toMatchObject({ code: 'USAGE' })
  }, 120_000)
})
