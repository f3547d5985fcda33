import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SIM_PACKAGE } from '../../../node/test/fixtures/build-dist.js'
import { freePortRange } from '../../../node/test/fixtures/free-port.js'
import { runIsnad } from '../../../node/test/integration/cli/run-cli.js'

/*
 * `isnad sim` as a person types it (the built CLI in a child process): the built-in list, a compose
 * project, a refused scenario, a model run with its baseline and the files it writes, refused port
 * ranges, a run over two child processes (the multi-process runner) inside a port range whose
 * results the report command renders again, and the same run over two worker threads.
 */

const run = promisify(execFile)
let dir = ''
/** The results of the run over two processes, to compare the run over two threads with. */
let overProcesses: { runs: Array<{ metrics: { trust: unknown } }> } | undefined
// ensureBuilt may run a full tsc (tens of seconds on a busy machine).
beforeAll(async () => {
  ensureBuilt()
  dir = await mkdtemp(join(tmpdir(), 'isnad-sim-cli-'))
}, 300_000)
afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }) })

describe('isnad sim', () => {
  it('lists the built-in scenarios with their descriptions, as text and as JSON', async () => {
    const result = await runIsnad(['sim', 'scenarios', '--json'])
    expect(result.code).toBe(0)
    const scenarios = result.json<{ scenarios: Array<{ name: string, description: string, nodes: number, sybils: number, sybilSweep: number[] }> }>().scenarios
    expect(scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(['honest-baseline', 'sybil-ring', 'colluding-witnesses', 'churn-partition']))
    for (const s of scenarios) expect(s.description, s.name).not.toBe('')
    expect(scenarios.find((s) => s.name === 'small')).toMatchObject({ nodes: 12, sybils: 2 })
    const text = await runIsnad(['sim', 'scenarios'])
    expect(text.stdout).toMatch(/^sybil-ring +36 honest nodes and a ring of 9 Sybils/m)
  })

  it('is the simulator package\'s own command too: isnad-sim <command> is isnad sim <command>', async () => {
    const { stdout } = await run(process.execPath, [join(SIM_PACKAGE, 'bin/isnad-sim.js'), 'scenarios', '--json'])
    const viaNode = await runIsnad(['sim', 'scenarios', '--json'])
    expect(JSON.parse(stdout)).toEqual(viaNode.json())
    const refused = await run(process.execPath, [join(SIM_PACKAGE, 'bin/isnad-sim.js'), 'run', 'no-such-scenario', '--json']).then(() => ({ code: 0, stderr: '' }), (err: { code: number, stderr: string }) => err)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('"code":"NOT_FOUND"')
  })

  it('writes a compose project with a bootstrap node, the nodes and a driver', async () => {
    const out = join(dir, 'compose-small')
    const result = await runIsnad(['sim', 'compose', 'small', '--out', out, '--json'])
    expect(result.code).toBe(0)
    const project = parse(await readFile(join(out, 'compose.yaml'), 'utf8')) as { services: Record<string, unknown> }
    expect(Object.keys(project.services)).toHaveLength(12 + 2)
    expect(JSON.parse(await readFile(join(out, 'scenario.json'), 'utf8')).name).toBe('small')
    // The project's token is private to its owner and survives a second generation (a deployed stack's secrets cannot change).
    const token = await readFile(join(out, 'sim-token'), 'utf8')
    expect((await stat(join(out, 'sim-token'))).mode & 0o777).toBe(0o644)
    expect(await readFile(join(out, '.env'), 'utf8')).toBe('COMPOSE_PROJECT_NAME=isnad-sim-small\n')
    expect((await runIsnad(['sim', 'compose', 'small', '--out', out, '--json'])).code).toBe(0)
    expect(await readFile(join(out, 'sim-token'), 'utf8')).toBe(token)
  })

  it('refuses an invalid scenario with SCHEMA_INVALID and runs nothing', async () => {
    const bad = join(dir, 'bad.yaml')
    await writeFile(bad, 'name: bad\nseed: 1\ndurationMinutes: 1\nnodes: { honest-author: 1 }\n')
    const result = await runIsnad(['sim', 'run', bad, '--json'])
    expect(result.code).not.toBe(0)
    expect(result.errorCode()).toBe('SCHEMA_INVALID')
  })

  it('plays a scenario at another time scale with --seconds-per-minute, and refuses one out of bounds', async () => {
    const out = join(dir, 'model-slow')
    const result = await runIsnad(['sim', 'run', 'small', '--engine', 'model', '--seconds-per-minute', '30', '--out', out, '--json'])
    expect(result.code, result.stderr).toBe(0)
    const written = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as { engine: string, scenario: { timeScale: { realSecondsPerMinute: number } } }
    expect(written.engine).toBe('model')
    expect(written.scenario.timeScale.realSecondsPerMinute).toBe(30)
    for (const bad of ['0', '-5', '3601', 'soon']) {
      const refused = await runIsnad(['sim', 'run', 'small', '--engine', 'model', '--seconds-per-minute', bad, '--out', join(dir, 'refused'), '--json'])
      expect(refused.code, bad).not.toBe(0)
      expect(refused.stderr, bad).toContain('--seconds-per-minute')
    }
  })

  it('plays the baseline beside the checks with --baseline, and writes results.csv with seeds, summary.csv with intervals and a report with its glossary', async () => {
    const out = join(dir, 'model-baseline')
    const result = await runIsnad(['sim', 'run', 'small', '--engine', 'model', '--seeds', '2', '--baseline', '--out', out])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^12 nodes \(2 Sybils\), seed 7, [\d.]+ s: .*gossip p50 [\d.—]+ virtual ms/m)
    expect(result.stdout).toContain('witness checks: none (the baseline)')
    expect(result.stdout).toContain(`summary: ${join(out, 'summary.csv')}`)
    expect(result.stderr).toMatch(/run 2 of 4 · sybil 2 \(17%\) · seed 7 · no checks/)
    const csv = (await readFile(join(out, 'results.csv'), 'utf8')).trim().split('\n')
    expect(csv[0]).toMatch(/^scenario,runner,seed,checks,nodes,sybils,policy,/)
    expect(new Set(csv.slice(1).map((row) => row.split(',').slice(2, 4).join(',')))).toEqual(new Set(['7,true', '7,false', '8,true', '8,false']))
    const summary = (await readFile(join(out, 'summary.csv'), 'utf8')).trim().split('\n')
    expect(summary[0]).toContain('auc_mean,auc_ci95_low,auc_ci95_high')
    const html = await readFile(join(out, 'report.html'), 'utf8')
    expect(html).toContain('<h2>Glossary</h2>')
    expect(html).toContain('in virtual time')
  }, 120_000)

  it('refuses a bad --port-range, and --jobs for real nodes, with USAGE before any node starts', async () => {
    const refusals: Array<[string[], RegExp]> = [
      [['--port-range', '40000'], /<from>-<to>/],
      [['--port-range', '41000-40000'], /starts above where it ends/],
      [['--port-range', '80-90'], /1024-65535/],
      [['--port-range', '40000-40010'], /holds 11 ports; 12 nodes need 24/],
      [['--port-range', '40000-40999', '--engine', 'model'], /the model engine binds no port/],
      [['--jobs', '2'], /--jobs is for the model engine/]
    ]
    for (const [args, message] of refusals) {
      const refused = await runIsnad(['sim', 'run', 'small', ...args, '--out', join(dir, 'refused-ports'), '--json'])
      expect(refused.code, args.join(' ')).not.toBe(0)
      expect(refused.errorCode(), args.join(' ')).toBe('USAGE')
      expect(refused.stderr, args.join(' ')).toMatch(message)
      expect(refused.stderr, args.join(' ')).not.toContain('starting')
    }
  }, 180_000)

  it('runs a scenario over two child processes inside a port range and renders its report again from results.json', async () => {
    const scenario = join(dir, 'four.yaml')
    await writeFile(scenario, [
      'name: four', 'seed: 3', 'durationMinutes: 0.5', 'timeScale: { realSecondsPerMinute: 10 }',
      "nodes: { honest-author: 2, honest-witness: 2 }", 'requests: { memoriesPerAuthorPerMinute: 4, witnessesPerMemory: 2, pattern: uniform }',
      'metrics: { observers: 1, trustRoots: 1 }'
    ].join('\n') + '\n')
    const out = join(dir, 'four')
    // Without the witness checks (--no-checks), so that the plan fixes every answer and the run over threads below gives the same trust.
    const { from, to } = await freePortRange()
    const result = await runIsnad(['sim', 'run', scenario, '--processes', '2', '--no-checks', '--port-range', `${from}-${to}`, '--out', out, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/4 nodes started in 2 processes/)
    expect(result.stderr).toMatch(/^sim: run 1 of 1 · sybil 0 \(0%\) · seed 3 · four: starting 4 nodes/m)
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8'))
    overProcesses = results
    expect(results.runner).toBe('processes')
    expect(results.checks).toBeNull()
    expect(results.runs[0].metrics.delivery.memoryRatio).toBe(1)
    const html = await readFile(join(out, 'report.html'), 'utf8')
    await rm(join(out, 'report.html'))
    expect((await runIsnad(['sim', 'report', join(out, 'results.json')])).code).toBe(0)
    expect(await readFile(join(out, 'report.html'), 'utf8')).toBe(html)
  }, 120_000)

  it('runs the same scenario over two worker threads of one process, with the same trust metrics', async () => {
    const out = join(dir, 'four-threads')
    const result = await runIsnad(['sim', 'run', join(dir, 'four.yaml'), '--threads', '2', '--no-draw', '--out', out, '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/4 nodes started in 2 worker threads/)
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8'))
    expect(results.runner).toBe('in-process')
    expect(results.checks).toBeNull()
    expect(results.runs[0].metrics.delivery.memoryRatio).toBe(1)
    expect(results.runs[0].metrics.trust).toEqual(overProcesses?.runs[0]?.metrics.trust)
  }, 120_000)
})
