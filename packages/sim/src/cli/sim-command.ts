import { dirname, resolve } from 'node:path'
import { InvalidArgumentError, type Command } from 'commander'
import { type CommandContext, emit, IsnadError, parsePositiveInt } from 'isnad/cli'
import type { SimResults } from '../index.js'

/*
 * `isnad sim` (docs/simulation.md): run a scenario in this process or over child processes, generate
 * its docker compose project, and the two commands the containers run (`sim node`, `sim drive`).
 * Results go to files; a summary goes to stdout; progress goes to stderr.
 */

/** The simulation pulls in libp2p and the HTTP server: loaded only when a `sim` command runs. */
async function simulation (): Promise<typeof import('../index.js')> {
  return await import('../index.js')
}

interface RunOptions { processes?: number, threads?: number, jobs?: number, out?: string, engine: string, seeds?: number, secondsPerMinute?: number, checks: boolean, draw: boolean, baseline?: boolean, portRange?: string }

const ENGINES = ['nodes', 'model'] as const

/** Real seconds per simulated minute: a positive number up to an hour (the scenario format's bounds). */
function parseSecondsPerMinute (value: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 3600) throw new InvalidArgumentError('must be a number of seconds above 0 and up to 3600')
  return number
}

/** The lines around results.json in the driver's log (`sim drive --print`): cut it out of `docker service logs --raw`. */
export const RESULTS_BEGIN = '----- results.json -----'
export const RESULTS_END = '----- end of results.json -----'

function summary (results: SimResults, paths: { json: string, csv: string, summary: string, html: string }): string {
  // The model engine's milliseconds are virtual; its seconds are the computation's.
  const ms = results.engine === 'model' ? 'virtual ms' : 'ms'
  const lines = results.runs.flatMap((run) => [
    `${run.nodes} nodes (${run.sybils} Sybils), seed ${run.seed ?? results.scenario.seed}, ${run.timings.totalSeconds} s: memory delivery ${run.metrics.delivery.memoryRatio ?? '—'}, attestation delivery ${run.metrics.delivery.attestationRatio ?? '—'}, gossip p50 ${run.metrics.delivery.latencyMs.p50 ?? '—'} ${ms}, witness RTT p50 ${run.metrics.witness.roundTripMs.p50 ?? '—'} ${ms}`,
    `  witness checks: ${results.checks == null || run.checks === false ? `none (${results.checks == null ? '--no-checks' : 'the baseline'})` : `the draw (${results.checks.size} expected per memory) and private checks at ${run.metrics.witness.checkingNodes ?? 0} nodes`}; per memory network-wide ${run.metrics.witness.requestsPerMemory ?? '—'} requests, ${run.metrics.witness.attestationsPerMemory ?? '—'} attestations`,
    ...run.metrics.trust.map((t) => `  ${t.policy}: AUC ${t.auc ?? '—'}, false ≥ Anchored ${t.falseAnchoredShare ?? '—'}, true Unverified ${t.trueUnverifiedShare ?? '—'}, Sybil mean trust ${t.sybilMeanTrust ?? '—'}`)
  ])
  return [...lines, `results: ${paths.json}`, `csv:     ${paths.csv}`, `summary: ${paths.summary}`, `report:  ${paths.html}`].join('\n')
}

export function registerSim (program: Command, context: (cmd: Command) => CommandContext): void {
  const sim = program.command('sim').description('simulate a network of real isnad nodes from a scenario file (docs/simulation.md)')

  sim.command('run <scenario>')
    .description(`play a scenario (a YAML/JSON file or a built-in name) on real nodes on 127.0.0.1, or in virtual time with --engine model, and write results.json, results.csv and report.html`)
    .option('--processes <n>', 'spread the nodes over this many child processes (default: all in this process)', parsePositiveInt)
    .option('--threads <n>', 'spread the nodes over this many worker threads of this process, to use more than one core (default: one per core from 50 nodes, else 1; ignored with --processes)', parsePositiveInt)
    .option('--jobs <n>', 'model engine: play this many runs of the sweep at once, each on a worker thread; the results are the same, in the same order (default: one per core, at most the runs; 1: one after the other in this process)', parsePositiveInt)
    .option('--out <dir>', 'directory for the results (default: ./sim-results/<scenario name>)')
    .option('--engine <engine>', 'nodes: real isnad daemons; model: virtual time over a modelled network, with real records and the real trust code (docs/simulation.md)', 'nodes')
    .option('--seeds <n>', 'run the scenario (and its sweep) with seeds s, s+1, …, s+n−1 and report each seed and their spread', parsePositiveInt)
    .option('--seconds-per-minute <s>', 'play the schedule at this many real seconds per simulated minute instead of the scenario\'s timeScale (slower gives a loaded machine time to deliver everything)', parseSecondsPerMinute)
    .option('--no-checks', 'play the network without the witness checks every node runs by default (drawn witnesses answering each memory, private checks where no drawn answer came), to see what they buy')
    .option('--no-draw', 'the same as --no-checks')
    .option('--baseline', 'also play every run without the witness checks, as a line of its own in the report, CSV and plots: what the checks buy (the scenario\'s metrics.baseline sets it too)')
    .option('--port-range <from>-<to>', 'real nodes only: bind every node\'s libp2p and HTTP API ports inside this range (two per node), e.g. 40000-40999')
    .action(async (path: string, opts: RunOptions, cmd: Command) => {
      const { checkPortRange, defaultJobs, loadScenario, nodeCount, parsePortRange, poolFactory, runModelScenario, runnerOf, runScenario, sweepOf, withTimeScale, writeResults } = await simulation()
      const ctx = context(cmd)
      if (!(ENGINES as readonly string[]).includes(opts.engine)) throw new IsnadError('USAGE', `unknown engine ${JSON.stringify(opts.engine)}; known: ${ENGINES.join(', ')}`)
      const portRange = opts.portRange === undefined ? undefined : parsePortRange(opts.portRange)
      if (portRange !== undefined && opts.engine === 'model') throw new IsnadError('USAGE', '--port-range is for real nodes: the model engine binds no port')
      if (opts.jobs !== undefined && opts.engine !== 'model') throw new IsnadError('USAGE', '--jobs is for the model engine: real nodes play one run at a time (--threads and --processes spread their nodes)')
      const scenario = withTimeScale(await loadScenario(path), opts.secondsPerMinute)
      const progress = (text: string): void => { ctx.out.stderr(`sim: ${text}`) }
      const seeds = opts.seeds ?? 1
      const checks = opts.checks && opts.draw
      const baseline = opts.baseline === true ? { baseline: true } : {}
      const choice = { progress, ...(opts.processes === undefined ? {} : { processes: opts.processes }), ...(opts.threads === undefined ? {} : { threads: opts.threads }), ...(portRange === undefined ? {} : { portRange }) }
      if (portRange !== undefined) checkPortRange(portRange, choice, sweepOf(scenario, 1).map((s) => nodeCount(s.nodes)))
      const results = opts.engine === 'model'
        ? await runModelScenario(scenario, { progress, seeds, checks, ...baseline, jobs: opts.jobs ?? defaultJobs() })
        : await runScenario(scenario, { seeds, runner: runnerOf(choice), createPool: poolFactory(scenario, choice), progress, checks, ...baseline })
      const paths = await writeResults(results, resolve(opts.out ?? `sim-results/${scenario.name}`))
      emit(ctx.out, { paths, engine: results.engine, defaultPolicy: results.defaultPolicy, checks: results.checks ?? null, runs: results.runs.map((r) => ({ seed: r.seed, checks: r.checks ?? results.checks != null, nodes: r.nodes, sybils: r.sybils, timings: r.timings, trust: r.metrics.trust.map(({ histogram: _, ...t }) => t) })) }, () => summary(results, paths))
    })

  sim.command('compose <scenario>')
    .description('write a compose project (bootstrap node, nodes, driver) for a scenario; run it with docker compose, podman-compose or docker stack deploy')
    .option('--out <dir>', 'directory for compose.yaml, scenario.json, sim-token and .env (default: ./sim-compose/<scenario name>)')
    .option('--image <name>', 'image built from docker/Dockerfile', 'isnad')
    .action(async (path: string, opts: { out?: string, image: string }, cmd: Command) => {
      const { loadScenario, nodeCount, writeComposeProject } = await simulation()
      const ctx = context(cmd)
      const scenario = await loadScenario(path)
      const file = await writeComposeProject(scenario, resolve(opts.out ?? `sim-compose/${scenario.name}`), { image: opts.image })
      emit(ctx.out, { compose: file, nodes: nodeCount(scenario.nodes) }, () => `${file} (${nodeCount(scenario.nodes)} nodes + bootstrap + driver)`)
    })

  sim.command('report <results>')
    .description('render report.html, results.csv and plots/*.svg again from a results.json')
    .option('--out <dir>', 'directory to write to (default: the results file\'s directory)')
    .action(async (path: string, opts: { out?: string }, cmd: Command) => {
      const { readResultsFile, writeResults } = await simulation()
      const ctx = context(cmd)
      const results = await readResultsFile(path)
      const directory = resolve(opts.out ?? dirname(path))
      const paths = await writeResults(results, directory, directory !== resolve(dirname(path)))
      emit(ctx.out, { paths }, () => `report: ${paths.html}`)
    })

  sim.command('scenarios')
    .description('list the built-in scenarios with what each plays (--json for their names, descriptions and sizes)')
    .action(async (_opts: unknown, cmd: Command) => {
      const { builtinScenarios } = await simulation()
      const ctx = context(cmd)
      const scenarios = await builtinScenarios()
      const width = Math.max(0, ...scenarios.map((s) => s.name.length))
      emit(ctx.out, { scenarios }, () => scenarios.map((s) => `${s.name.padEnd(width)}  ${s.description}`).join('\n'))
    })

  sim.command('node')
    .description('(inside a container) one simulated node: `isnad start` plus the compose network glue')
    .requiredOption('--scenario <file>', 'the scenario file')
    .requiredOption('--name <name>', 'this node\'s service name (bootstrap or node-<i>)')
    .requiredOption('--token-file <file>', 'the project\'s token (its secret sim-token): every node\'s API token')
    .option('--index <i>', 'this node\'s index in the scenario', (v) => Number.parseInt(v, 10))
    .action(async (opts: { scenario: string, name: string, tokenFile: string, index?: number }, cmd: Command) => {
      const { loadScenario, readProjectToken, runContainerNode } = await simulation()
      const ctx = context(cmd)
      const node = await runContainerNode({
        home: ctx.home, name: opts.name, scenario: await loadScenario(opts.scenario), token: await readProjectToken(opts.tokenFile),
        ...(opts.index === undefined ? {} : { index: opts.index }), log: (line) => { ctx.out.stderr(line) }
      })
      await new Promise<void>((done) => {
        const stop = (): void => { node.close().finally(done) }
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
      })
    })

  sim.command('drive <scenario>')
    .description('(inside a container) play a scenario through the HTTP APIs of the project\'s running nodes, found by service name')
    .requiredOption('--token-file <file>', 'the project\'s token (its secret sim-token)')
    .requiredOption('--out <dir>', 'directory for the results')
    .option('--print', 'also print results.json to stdout, between marker lines (for `docker service logs`)')
    .action(async (path: string, opts: { tokenFile: string, out: string, print?: boolean }, cmd: Command) => {
      const { RemotePool, SimProgress, loadScenario, readProjectToken, resultsOf, runOnce, trackedRun, writeResults } = await simulation()
      const ctx = context(cmd)
      const scenario = await loadScenario(path)
      const token = await readProjectToken(opts.tokenFile)
      const progress = (text: string): void => { ctx.out.stderr(`sim: ${text}`) }
      const waiting = (name: string, problem: string): void => { progress(`waiting for ${name} (${problem})`) }
      const run = await runOnce(scenario, {
        runner: 'docker',
        createPool: async (count) => await RemotePool.discover(count, { token, waiting }),
        ...trackedRun(new SimProgress(progress, 1), 1, scenario)
      })
      if (scenario.metrics.sybilSweep.length > 0) run.notes.push('the Sybil sweep needs other node counts: run it with `isnad sim run`')
      if (scenario.metrics.baseline) run.notes.push('the baseline without the witness checks needs another run: run it with `isnad sim run`')
      const results = resultsOf(scenario, 'docker', [run], Date.now())
      const paths = await writeResults(results, resolve(opts.out))
      ctx.out.stdout(summary(results, paths))
      if (opts.print === true) ctx.out.stdout([RESULTS_BEGIN, JSON.stringify(results, null, 2), RESULTS_END].join('\n'))
    })
}
