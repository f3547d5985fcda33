import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { BUILTIN_SCENARIO_DIR, GLOSSARY, confidence95, glossaryEntryOf, loadScenario, parseScenario, plotFiles, reportHtml, runModelScenario, writeResults, type SimResults } from '../../src/index.js'
import { DEFAULT_TRUST_POLICY } from 'isnad/engine'

/*
 * The results files a researcher reads (docs/simulation.md, "Output" and "The report"), from a model
 * run of two seeds with a Sybil sweep and the baseline without the witness checks: results.csv tells
 * every run apart by seed and checks, summary.csv carries each point's mean and 95 % interval, the
 * report defines every term and column it prints, speaks of virtual time for the model engine, and
 * draws the baseline as series of its own. Then the built-in sybil-ring: its sweep separates the
 * policies while the default one meets its targets on the scenario as written.
 */

const quiet = (): void => {}

const SWEPT = parseScenario({
  name: 'results-files',
  seed: 5,
  durationMinutes: 2,
  nodes: { 'honest-author': 4, 'honest-witness': 10, sybil: 4 },
  requests: { memoriesPerAuthorPerMinute: 2, witnessesPerMemory: 3 },
  metrics: { observers: 3, trustRoots: 3, sybilSweep: [0, 10], baseline: true }
})

function csvRows (text: string): Array<Record<string, string>> {
  const [head, ...lines] = text.trim().split('\n')
  const columns = (head as string).split(',')
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i] as string, cell])))
}

let dir = ''
let results: SimResults
let html = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'isnad-results-files-'))
  results = await runModelScenario(SWEPT, { progress: quiet, seeds: 2 })
  await writeResults(results, dir)
  html = await readFile(join(dir, 'report.html'), 'utf8')
}, 120_000)
afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }) })

describe('the baseline without the checks', () => {
  it('plays every run of every seed twice, with the checks and without, and records which', () => {
    expect(results.runs.map((r) => [r.seed, r.sybils, r.checks])).toEqual([5, 6].flatMap((seed) => [4, 0, 10].flatMap((sybils) => [[seed, sybils, true], [seed, sybils, false]])))
    const off = results.runs.filter((r) => r.checks === false)
    for (const run of off) expect(run.metrics.witness.checkingNodes).toBe(0)
    for (const run of results.runs.filter((r) => r.checks === true)) expect(run.metrics.witness.checkingNodes).toBe(run.nodes)
    expect(results.checks).not.toBeNull()
    expect(results.spread?.filter((s) => !s.checks).map((s) => s.sybils)).toEqual([0, 4, 10].flatMap((n) => results.policies.map(() => n)))
  })

  it('is a series of its own in the sweep plots and the policy comparison, and a sentence of the findings', async () => {
    const files = await plotFiles(results)
    expect(files.get('sybil-auc.svg')).toContain(`${DEFAULT_TRUST_POLICY} (default) without checks`)
    expect(files.get('policy-comparison.svg')).toContain(`${DEFAULT_TRUST_POLICY} (default) without checks`)
    // the baseline's lines dashed, the others solid
    expect(files.get('sybil-auc.svg')).toContain('stroke-dasharray="6,4"')
    expect(files.get('sybil-auc.svg')).toContain('stroke-dasharray="1,0"')
    expect(html).toMatch(/Without the witness checks \(the baseline\), against the same 4 Sybils \(22%\): /)
    expect(html).toMatch(/without the checks, isnad-v0\.1&#39;s AUC went from/)
  })
})

describe('results.csv and summary.csv', () => {
  it('tells every run apart by seed and checks', async () => {
    const rows = csvRows(await readFile(join(dir, 'results.csv'), 'utf8'))
    expect(Object.keys(rows[0]!).slice(0, 7)).toEqual(['scenario', 'runner', 'seed', 'checks', 'nodes', 'sybils', 'policy'])
    expect(rows).toHaveLength(results.runs.length * results.policies.length)
    const keys = new Set(rows.map((r) => `${r.seed}|${r.checks}|${r.sybils}|${r.policy}`))
    expect(keys.size).toBe(rows.length)
    expect(new Set(rows.map((r) => r.seed))).toEqual(new Set(['5', '6']))
    expect(new Set(rows.map((r) => r.checks))).toEqual(new Set(['true', 'false']))
  })

  it('gives each point of the sweep its mean and 95% interval over the seeds, as the per-run rows make them', async () => {
    const runs = csvRows(await readFile(join(dir, 'results.csv'), 'utf8'))
    const points = csvRows(await readFile(join(dir, 'summary.csv'), 'utf8'))
    expect(points).toHaveLength(2 * 3 * results.policies.length)
    for (const point of points) {
      const aucs = runs.filter((r) => r.checks === point.checks && r.sybils === point.sybils && r.policy === point.policy && r.auc !== '').map((r) => Number(r.auc))
      const label = `${point.checks} ${point.sybils} ${point.policy}`
      expect(point.seeds, label).toBe('2')
      if (aucs.length < 2) { expect(point.auc_ci95_low, label).toBe(''); continue }
      const ci = confidence95(aucs)!
      expect(Number(point.auc_mean), label).toBeCloseTo(aucs.reduce((a, b) => a + b, 0) / aucs.length, 3)
      expect(Number(point.auc_ci95_low), label).toBe(ci.low)
      expect(Number(point.auc_ci95_high), label).toBe(ci.high)
      expect(Number(point.auc_min), label).toBe(Math.min(...aucs))
      expect(Number(point.auc_max), label).toBe(Math.max(...aucs))
      expect(point.is_default, label).toBe(String(point.policy === DEFAULT_TRUST_POLICY))
    }
  })
})

describe('report.html', () => {
  it('defines every column heading it prints, and its words: AUC, held, observers, Sybil mean trust, the 95% CI', () => {
    const headings = [...html.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))
    expect(headings.length).toBeGreaterThan(20)
    for (const heading of new Set(headings)) expect(glossaryEntryOf(heading), heading).toBeDefined()
    const section = html.slice(html.indexOf('<h2>Glossary</h2>'))
    for (const term of ['AUC', 'held', 'observers', 'Sybil mean trust', '95% CI', 'true Unverified', 'false ≥ Attested', 'virtual time']) expect(section, term).toContain(`<dt>${term}</dt>`)
    expect(section).toContain('t-distribution')
    expect(new Set(GLOSSARY.map((e) => e.term)).size).toBe(GLOSSARY.length)
  })

  it('shows the model engine\'s run in virtual time, not at real seconds per minute', () => {
    expect(html).toContain('2 simulated minutes in virtual time')
    expect(html).not.toMatch(/minutes at [\d.]+ real s per (simulated )?minute/)
  })

  it('shows a real-node run at its time scale', async () => {
    const real = await reportHtml({ ...results, engine: 'nodes', runner: 'in-process' })
    expect(real).toContain('2 simulated minutes at 60 real s per simulated minute')
    expect(real).not.toContain('virtual time (')
  })
})

describe('the built-in sybil-ring', () => {
  it('separates the policies along its sweep while the default policy meets its targets as written', async () => {
    const scenario = await loadScenario('sybil-ring')
    expect(scenario.metrics.baseline).toBe(true)
    expect(Math.max(...scenario.metrics.sybilSweep) / (36 + Math.max(...scenario.metrics.sybilSweep))).toBe(0.6)
    const ring = await runModelScenario(scenario, { progress: quiet })
    const trust = (checks: boolean, sybils: number, policy: string) => ring.runs.find((r) => r.checks === checks && r.sybils === sybils)!.metrics.trust.find((t) => t.policy === policy)!
    // On defaults (the checks on, the scenario as written): the default policy's targets.
    const asWritten = trust(true, 9, DEFAULT_TRUST_POLICY)
    expect(asWritten.auc).toBeGreaterThanOrEqual(0.95)
    expect(asWritten.falseAnchoredShare).toBe(0)
    expect(asWritten.falseAttestedShare).toBeLessThanOrEqual(0.05)
    expect(asWritten.trueUnverifiedShare).toBeLessThanOrEqual(0.2)
    // Somewhere along the sweep, with the checks off or at the strongest ring, a policy breaks.
    const aucs = ring.runs.flatMap((r) => r.metrics.trust.map((t) => ({ checks: r.checks, sybils: r.sybils, policy: t.policy, auc: t.auc })))
    const broken = aucs.filter((a) => a.auc !== null && a.auc < 0.9)
    expect(broken.some((a) => a.checks === false)).toBe(true)
    expect(broken.some((a) => a.checks === true && a.sybils === 54)).toBe(true)
    // and the curves differ: at some count two policies are more than 0.2 apart
    expect(ring.runs.some((r) => { const v = r.metrics.trust.flatMap((t) => t.auc === null ? [] : [t.auc]); return Math.max(...v) - Math.min(...v) > 0.2 })).toBe(true)
    // The scenario's description says what it plays.
    expect(parse(await readFile(join(BUILTIN_SCENARIO_DIR, 'sybil-ring.yaml'), 'utf8')).description).toContain('0–60%')
  }, 120_000)
})
