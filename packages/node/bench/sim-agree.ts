import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { loadavg, setPriority } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import {
  agreementSummary, agreementTable, builtinScenarioNames, createPlan, deliveryGaps, loadScenario, poolFactory, publishableMemories, runModelScenario, runnerOf,
  runScenario, sweepOf, withTimeScale, writeResults, type AgreementRow, type RunResult, type Scenario, type SimResults
} from 'isnad-sim'
import { DEFAULT_TRUST_POLICY, TRUST_POLICIES } from '../src/trust/index.js'

/*
 * `npm run sim:agree` (docs/simulation.md, "The engines agree"): every built-in scenario, and every
 * Sybil count of its sweep, played at its own size on real nodes (as `isnad sim run` plays it) and
 * on the model engine, with the trust metrics side by side in a paste-ready markdown table.
 *
 * The comparison needs full delivery (else the observers saw different records): a real run that
 * falls short — on a loaded machine the CPU queue, not the protocol, delays answers past their
 * waits — is played again at twice the real seconds per simulated minute, up to --retries times,
 * and the model plays at the time scale the real run finally used. The process lowers its own
 * priority (--nice, default 10): the real nodes use every core.
 *
 *   npm run sim:agree                                  # every built-in scenario
 *   npm run sim:agree -- --scenarios small,sybil-ring  # some
 *   npm run sim:agree -- --seconds-per-minute bench-100=40 --retries 1
 *   npm run sim:agree -- --resume                      # keep the rows already in <out>/agree.json
 *   npm run sim:agree -- --table-only                  # the table again from <out>/agree.json, nothing run
 *   npm run sim:agree -- --no-checks                   # both engines without the witness checks: draw for draw, within 0.01
 *
 * Writes <out>/agree.md (the table), <out>/agree.json (every row's runs) and each run's results
 * (results.json, report.html) under <out>/<scenario>-sybils-<n>/{nodes,model}. Progress on stderr,
 * the markdown on stdout.
 */

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string' },
    out: { type: 'string', default: 'sim-results/agree' },
    'seconds-per-minute': { type: 'string', multiple: true, default: [] },
    retries: { type: 'string', default: '2' },
    processes: { type: 'string' },
    threads: { type: 'string' },
    nice: { type: 'string', default: '10' },
    resume: { type: 'boolean', default: false },
    'no-checks': { type: 'boolean', default: false },
    'table-only': { type: 'boolean', default: false }
  }
})

const started = performance.now()
function say (text: string): void {
  process.stderr.write(`[agree ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}\n`)
}

function positiveNumber (name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name} takes a ${integer ? 'whole ' : ''}number ≥ 0, got ${JSON.stringify(text)}`)
  return n
}

/** `--seconds-per-minute 40` (every scenario) or `name=40` (one), repeatable. */
function timeScales (entries: readonly string[]): { all?: number, byName: Map<string, number> } {
  const byName = new Map<string, number>()
  let all: number | undefined
  for (const entry of entries) {
    const [name, value] = entry.includes('=') ? entry.split('=', 2) as [string, string] : [undefined, entry]
    const seconds = positiveNumber('seconds-per-minute', value, false)
    if (seconds === undefined || seconds === 0) throw new Error(`--seconds-per-minute takes S or name=S with S > 0, got ${JSON.stringify(entry)}`)
    if (name === undefined) all = seconds
    else byName.set(name, seconds)
  }
  return { ...(all === undefined ? {} : { all }), byName }
}

const retries = positiveNumber('retries', values.retries, true) ?? 2
/**
 * Spot checks are played by default, as `isnad sim run` plays them; each observer's daemon then draws
 * with its own randomness, so the engines agree in distribution and the 0.01 tolerance, made for
 * runs where the plan fixes every choice, holds only with --no-checks.
 */
const checks = !values['no-checks']
const processes = positiveNumber('processes', values.processes, true)
const threads = positiveNumber('threads', values.threads, true)
const scales = timeScales(values['seconds-per-minute'])
const out = resolve(values.out)
const rowsFile = join(out, 'agree.json')
const tableFile = join(out, 'agree.md')

function keyOf (scenario: string, run: RunResult): string {
  return `${scenario}/${run.sybils}/${run.seed ?? ''}`
}

function onlyRun (results: SimResults): RunResult {
  const run = results.runs[0]
  if (run === undefined) throw new Error(`${results.scenario.name}: the engine produced no run`)
  return run
}

/** One point of a scenario's sweep on real nodes, slower after each run that fell short of full delivery. */
async function realRun (point: Scenario, publishable: number, label: string, dir: string): Promise<Pick<AgreementRow, 'real' | 'retries' | 'secondsPerMinute'>> {
  const retried: AgreementRow['retries'] = []
  let seconds = point.timeScale.realSecondsPerMinute
  for (let attempt = 0; ; attempt++) {
    const scenario = withTimeScale(point, seconds)
    const progress = (text: string): void => { say(`${label} nodes @ ${seconds} s/min: ${text}`) }
    const choice = { progress, ...(processes === undefined ? {} : { processes }), ...(threads === undefined ? {} : { threads }) }
    const results = await runScenario(scenario, { runner: runnerOf(choice), createPool: poolFactory(scenario, choice), progress, checks })
    const run = onlyRun(results)
    const gaps = deliveryGaps(run, publishable)
    if (gaps.length === 0 || attempt >= retries) {
      await writeResults(results, join(dir, 'nodes'))
      if (gaps.length > 0) say(`${label}: delivery still incomplete at ${seconds} s/min (${gaps.join(', ')}); not compared`)
      return { real: run, retries: retried, secondsPerMinute: seconds }
    }
    say(`${label}: delivery incomplete at ${seconds} s/min (${gaps.join(', ')}); again at ${seconds * 2} s/min`)
    retried.push({ secondsPerMinute: seconds, gaps, wallSeconds: run.timings.totalSeconds })
    seconds *= 2
  }
}

async function main (): Promise<void> {
  setPriority(positiveNumber('nice', values.nice, true) ?? 10)
  const names = values.scenarios?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? await builtinScenarioNames()
  await mkdir(out, { recursive: true })
  const kept: AgreementRow[] = (values.resume || values['table-only']) && existsSync(rowsFile) ? (JSON.parse(await readFile(rowsFile, 'utf8')) as { rows: AgreementRow[] }).rows : []
  const done = new Map(kept.map((r) => [keyOf(r.scenario, r.real), r]))
  const rows: AgreementRow[] = []
  // With --resume, the rows of scenarios this run does not play stay in the table as they were.
  const untouched = values.resume ? kept.filter((r) => !names.includes(r.scenario)) : []
  const loadStart = loadavg()[0] ?? 0
  const write = async (): Promise<string> => {
    const markdown = [
      values['table-only'] ? `Table of ${rowsFile} (regenerated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC); policies ${Object.keys(TRUST_POLICIES).join(', ')}. Per policy: AUC · F≥Anc · F≥Att · T Unv as below; max |Δ| model against real.` : `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run sim:agree${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (real nodes under nice ${values.nice}, ${runnerOf({ ...(processes === undefined ? {} : { processes }) })}${processes === undefined ? `, ${threads === undefined ? 'one thread per core from 50 nodes' : `${threads} threads`}` : ` over ${processes} processes`}); load average ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end; policies ${Object.keys(TRUST_POLICIES).join(', ')} (default ${DEFAULT_TRUST_POLICY}). Per policy: AUC of trust for true against false memories · share of false memories at Anchored or better · at Attested or better · share of true memories left Unverified, pooled over the observers; max |Δ| over those and the mean trusts (true, false, Sybil) and the Sybil Attested share, model against real.`,
      '',
      agreementTable([...untouched, ...rows]),
      '',
      agreementSummary([...untouched, ...rows])
    ].join('\n')
    await writeFile(tableFile, `${markdown}\n`)
    await writeFile(rowsFile, `${JSON.stringify({ rows: [...untouched, ...rows] }, null, 1)}\n`)
    return markdown
  }
  if (values['table-only']) {
    rows.push(...kept.map((r) => ({ ...r, publishable: r.publishable ?? r.real.metrics.memories.planned })))
    process.stdout.write(`${await write()}\n`)
    return
  }
  for (const name of names) {
    const base = await loadScenario(name)
    const chosen = scales.byName.get(name) ?? scales.all
    for (const swept of sweepOf(withTimeScale(base, chosen), 1)) {
      // One run per point: the sweep's counts are points of their own, and the baseline is --no-checks here.
      const point: Scenario = { ...swept, metrics: { ...swept.metrics, sybilSweep: [], baseline: false } }
      const label = `${name} (${swept.nodes.sybil} Sybils)`
      const dir = join(out, `${name}-sybils-${swept.nodes.sybil}`)
      const publishable = publishableMemories(createPlan(point))
      const previous = done.get(`${name}/${swept.nodes.sybil}/${swept.seed}`)
      if (previous !== undefined) { say(`${label}: kept from ${rowsFile}`); rows.push({ ...previous, publishable }); continue }
      const real = await realRun(point, publishable, label, dir)
      const atScale = withTimeScale(point, real.secondsPerMinute)
      const model = await runModelScenario(atScale, { progress: (text) => { say(`${label} model: ${text}`) }, checks })
      await writeResults(model, join(dir, 'model'))
      rows.push({ scenario: name, scenarioSecondsPerMinute: base.timeScale.realSecondsPerMinute, publishable, ...real, model: onlyRun(model) })
      await write()
      say(`${label}: done; ${tableFile}`)
    }
  }
  process.stdout.write(`${await write()}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`sim-agree: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exitCode = 1
})
