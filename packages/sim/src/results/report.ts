import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { cdfSpec, groupedBarSpec, renderSvg, sweepSpec, type GroupedBar, type SweepPoint } from './charts.js'
import { GLOSSARY } from './glossary.js'
import { baselineGroups, checksOf, defaultPolicyOf, engineOf, findings, groupsBySybils, mainGroup, policiesOf, seedOf, seedsOf, spreadOf, type PolicyMetric, type RunGroup, type Spread } from './results-findings.js'
import { csvCell, summaryCsv } from './summary-csv.js'
import type { RunResult, SimResults } from '../driver/index.js'

/*
 * The outputs of a simulation (docs/simulation.md, "Output"): results.json (everything), results.csv
 * (one row per run and trust policy), summary.csv (one row per point of the sweep and policy: means
 * and 95 % intervals over the seeds) and report.html, one self-contained page (no script, nothing
 * fetched) that opens with what the runs found in words (findings.ts), then plots rendered to SVG by
 * Vega-Lite (charts.ts), the tables behind them and a glossary of every term (glossary.ts). Several
 * seeds show as 95 % confidence intervals around the means; runs without the witness checks (the
 * baseline) as their own series beside the runs with them.
 */
const CSV_COLUMNS = [
  'scenario', 'runner', 'seed', 'checks', 'nodes', 'sybils', 'policy', 'auc', 'false_anchored_share', 'false_attested_share', 'true_unverified_share',
  'mean_trust_true', 'mean_trust_false', 'sybil_mean_trust', 'memories_published', 'memory_delivery', 'attestation_delivery',
  'latency_p50_ms', 'latency_p99_ms', 'witness_rtt_p50_ms', 'witness_rtt_p99_ms', 'messages_per_node', 'payload_bytes_per_node',
  'cpu_ms_per_node', 'total_seconds', 'driver_lag_p50_ms'
] as const

/** One row per run and policy; `seed` and `checks` (true / false) tell the runs of a sweep apart. */
export function resultsCsv (results: SimResults): string {
  const rows = results.runs.flatMap((run) => run.metrics.trust.map((t) => [
    results.scenario.name, results.runner, seedOf(results, run), checksOf(results, run), run.nodes, run.sybils, t.policy, t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare,
    t.meanTrustTrue, t.meanTrustFalse, t.sybilMeanTrust, run.metrics.memories.published, run.metrics.delivery.memoryRatio, run.metrics.delivery.attestationRatio,
    run.metrics.delivery.latencyMs.p50, run.metrics.delivery.latencyMs.p99, run.metrics.witness.roundTripMs.p50, run.metrics.witness.roundTripMs.p99,
    run.metrics.perNode?.messagesMean, run.metrics.perNode?.payloadBytesMean, run.metrics.perNode?.cpuMsMean, run.timings.totalSeconds, run.driverLoad.eventLoopLagP50Ms
  ].map(csvCell).join(',')))
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n'
}

export function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

function table (headers: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const cell = (v: unknown): string => escapeHtml(v === null || v === undefined ? '—' : String(v))
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`).join('') + '</tbody></table>'
}

/** One plot of the report: its SVG in a figure the browser test and the plot files find by kind. */
interface Plot { kind: string, file: string, svg: string }

function figureOf (plot: Plot): string {
  return `<figure class="plot" data-plot="${plot.kind}">${plot.svg}</figure>`
}

const POLICY_METRICS: ReadonlyArray<[PolicyMetric, string]> = [['auc', 'AUC'], ['falseAttestedShare', 'false ≥ Attested'], ['trueUnverifiedShare', 'true Unverified']]

/** A policy's name in legends and tables: "(default)" after the default, "without checks" on the baseline's. */
function seriesName (results: SimResults, policy: string, checks = true): string {
  const name = policy === defaultPolicyOf(results) ? `${policy} (default)` : policy
  return checks ? name : `${name} without checks`
}

/** A spread as a plot's mean and interval: the 95 % CI over several seeds, the mean itself with one. */
function interval (spread: Spread): { mean: number, low: number, high: number, n: number } {
  return { mean: spread.mean, low: spread.ci95?.low ?? spread.mean, high: spread.ci95?.high ?? spread.mean, n: spread.n }
}

/** The groups a plot or table shows: the runs with the checks, then the baseline's without them. */
function seriesGroups (results: SimResults, main: RunGroup | undefined): RunGroup[] {
  const baseline = main === undefined ? undefined : baselineGroups(results).find((g) => g.sybils === main.sybils)
  return [main, baseline].filter((g): g is RunGroup => g !== undefined)
}

/** The policies side by side on the scenario as written (and its baseline): AUC and the two error shares, with the 95 % CI. */
async function policyPlot (results: SimResults, group: RunGroup): Promise<Plot> {
  const bars: GroupedBar[] = []
  for (const [metric, label] of POLICY_METRICS) {
    for (const g of seriesGroups(results, group)) {
      for (const policy of policiesOf(results)) {
        const spread = spreadOf(g, policy, metric)
        if (spread !== null) bars.push({ category: label, group: seriesName(results, policy, g.checks), ...interval(spread) })
      }
    }
  }
  const svg = await renderSvg(groupedBarSpec(`trust policies against the ground truth (${group.sybils} Sybils)`, '', 'share / AUC', bars, { share: true, categories: POLICY_METRICS.map(([, l]) => l) }))
  return { kind: 'policy-comparison', file: 'policy-comparison.svg', svg }
}

/** A policy metric against the Sybil count: one point per Sybil count, policy and checks, the 95 % CI as a bar. */
function sweepPoints (results: SimResults, metric: PolicyMetric): SweepPoint[] {
  return [...groupsBySybils(results), ...baselineGroups(results)].flatMap((group) => policiesOf(results).flatMap((policy) => {
    const spread = spreadOf(group, policy, metric)
    return spread === null ? [] : [{ x: group.sybils, series: seriesName(results, policy, group.checks), checks: group.checks, ...interval(spread) }]
  }))
}

const SWEEP_PLOTS: ReadonlyArray<{ kind: string, metric: PolicyMetric, title: string, y: string }> = [
  { kind: 'sybil-auc', metric: 'auc', title: 'ranking of true above false memories vs Sybil count', y: 'AUC (0.5: a coin)' },
  { kind: 'sybil-curve', metric: 'sybilMeanTrust', title: 'mean trust of Sybil memories vs Sybil count', y: 'mean trust at observers' },
  { kind: 'sybil-false-attested', metric: 'falseAttestedShare', title: 'false memories rated Attested or better vs Sybil count', y: 'share of false memories' }
]

async function sweepPlots (results: SimResults): Promise<Plot[]> {
  if (groupsBySybils(results).length < 2) return []
  return await Promise.all(SWEEP_PLOTS.map(async (p) => ({ kind: p.kind, file: `${p.kind}.svg`, svg: await renderSvg(sweepSpec(p.title, 'Sybil nodes', p.y, sweepPoints(results, p.metric))) })))
}

async function latencyPlot (results: SimResults, group: RunGroup): Promise<Plot | null> {
  const series = group.runs.filter((r) => r.metrics.delivery.latencyCdf.length > 0)
    .map((r) => ({ name: `seed ${seedOf(results, r)}`, points: r.metrics.delivery.latencyCdf }))
  if (series.length === 0) return null
  return { kind: 'latency-cdf', file: 'latency-cdf.svg', svg: await renderSvg(cdfSpec('attestation gossip latency (CDF)', 'ms from attest to stored at a node', series)) }
}

/** One trust-distribution plot per policy: observer × memory pairs per trust bin, summed over seeds. */
async function trustPlots (results: SimResults, group: RunGroup): Promise<Plot[]> {
  const bins = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`)
  return await Promise.all(policiesOf(results).map(async (policy) => {
    const sum = (side: 'true' | 'false', bin: number): number => group.runs.reduce((total, r) => total + (r.metrics.trust.find((t) => t.policy === policy)?.histogram[side][bin] ?? 0), 0)
    const bars: GroupedBar[] = bins.flatMap((category, i) => (['true', 'false'] as const).map((side) => {
      const value = sum(side, i)
      return { category, group: `${side} memories`, mean: value, low: value, high: value, n: 1 }
    }))
    const svg = await renderSvg(groupedBarSpec(`trust distribution, ${seriesName(results, policy)}`, 'trust score', 'observer × memory pairs', bars, { categories: bins, counts: true, colours: TRUTH_COLOURS }))
    return { kind: 'trust-distribution', file: `trust-${policy}.svg`, svg }
  }))
}

/** True memories blue, false ones red, in every trust distribution. */
const TRUTH_COLOURS = { 'true memories': '#1f77b4', 'false memories': '#d62728' }

function runDetails (run: RunResult, title: string): string {
  const m = run.metrics
  return `<h3>${escapeHtml(title)}</h3>` +
    `<p>${run.nodes} nodes (${Object.entries(run.roles).map(([r, n]) => `${n} ${r}`).join(', ')}); observers ${run.observers.join(', ')}; ` +
    `setup ${run.timings.setupSeconds.toFixed(1)} s, activity ${run.timings.activitySeconds.toFixed(1)} s, total ${run.timings.totalSeconds} s; ` +
    `driver during the activity: event-loop lag p50 ${run.driverLoad.eventLoopLagP50Ms} ms, max ${run.driverLoad.eventLoopLagMaxMs} ms, CPU ${run.driverLoad.cpuPercent}%; ${run.relinks} dropped links redialled.</p>` +
    table(['memories published', 'true memories', 'false memories', 'memory delivery', 'attestation delivery', 'gossip p50 ms', 'gossip p90 ms', 'gossip p99 ms', 'request → inbox p50 ms', 'witness RTT p50 ms', 'witness RTT p99 ms', 'missed answers'],
      [[m.memories.published, m.memories.true, m.memories.false, m.delivery.memoryRatio, m.delivery.attestationRatio, m.delivery.latencyMs.p50, m.delivery.latencyMs.p90,
        m.delivery.latencyMs.p99, m.witness.requestDelayMs.p50, m.witness.roundTripMs.p50, m.witness.roundTripMs.p99, m.witness.missedAnswers]]) +
    table(['requests / memory', 'attestations / memory', 'checking nodes'], [[m.witness.requestsPerMemory, m.witness.attestationsPerMemory, m.witness.checkingNodes]]) +
    table(['policy', 'AUC', 'false ≥ Anchored', 'false ≥ Attested', 'true Unverified', 'mean trust (true)', 'mean trust (false)', 'Sybil mean trust'],
      m.trust.map((t) => [t.policy, t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare, t.meanTrustTrue, t.meanTrustFalse, t.sybilMeanTrust])) +
    (m.perNode === null
      ? '<p>Per-node messages, bytes and CPU: not measured by this runner.</p>'
      : table(['messages / node', 'messages / node (max)', 'payload bytes / node', 'verifications / node', 'CPU ms / node'],
        [[m.perNode.messagesMean, m.perNode.messagesMax, m.perNode.payloadBytesMean, m.perNode.verificationsMean, m.perNode.cpuMsMean]])) +
    (run.notes.length === 0 ? '' : `<ul class="notes">${run.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`)
}

const checksWord = (checks: boolean): string => checks ? 'with' : 'without'

/** Every run in one table: Sybils, seed, checks, delivery and each policy's AUC. */
function runsTable (results: SimResults): string {
  const policies = policiesOf(results)
  return table(['Sybils', 'nodes', 'seed', 'checks', 'memories', 'memory delivery', 'attestation delivery', 'gossip p50 ms', 'total s', ...policies.map((p) => `AUC ${p}`)],
    [...results.runs].sort((a, b) => Number(checksOf(results, b)) - Number(checksOf(results, a)) || a.sybils - b.sybils || seedOf(results, a) - seedOf(results, b)).map((r) => [
      r.sybils, r.nodes, seedOf(results, r), checksWord(checksOf(results, r)), r.metrics.memories.published, r.metrics.delivery.memoryRatio, r.metrics.delivery.attestationRatio,
      r.metrics.delivery.latencyMs.p50, r.timings.totalSeconds, ...policies.map((p) => r.metrics.trust.find((t) => t.policy === p)?.auc)
    ]))
}

/** A mean over the seeds with its 95 % CI and range: "0.540 (95% CI 0.416–0.665; 0.490–0.590)". */
function spreadCell (group: RunGroup, policy: string, metric: PolicyMetric): string {
  const s = spreadOf(group, policy, metric)
  if (s === null) return '—'
  const ci = s.ci95
  return ci === null ? s.mean.toFixed(3) : `${s.mean.toFixed(3)} (95% CI ${ci.low.toFixed(3)}–${ci.high.toFixed(3)}; ${s.min.toFixed(3)}–${s.max.toFixed(3)})`
}

/** The policies' table of the scenario as written: one row per policy, and per policy without the checks. */
function policyTable (results: SimResults, main: RunGroup): string {
  return table(['policy', 'checks', 'seeds', ...POLICY_METRICS.map(([, l]) => l), 'false ≥ Anchored', 'Sybil mean trust'], seriesGroups(results, main).flatMap((g) => policiesOf(results).map((p) =>
    [seriesName(results, p), checksWord(g.checks), g.runs.length, ...POLICY_METRICS.map(([m]) => spreadCell(g, p, m)), spreadCell(g, p, 'falseAnchoredShare'), spreadCell(g, p, 'sybilMeanTrust')])))
}

function sweepTable (results: SimResults): string {
  const groups = [...groupsBySybils(results), ...baselineGroups(results)]
  return table(['Sybils', 'share of nodes', 'checks', 'seeds', 'policy', 'AUC', 'Sybil mean trust', 'false ≥ Attested', 'false ≥ Anchored', 'true Unverified'], groups.flatMap((g) => policiesOf(results).map((p) =>
    [g.sybils, `${Math.round(g.sybils / g.nodes * 100)}%`, checksWord(g.checks), g.runs.length, p, spreadCell(g, p, 'auc'), spreadCell(g, p, 'sybilMeanTrust'), spreadCell(g, p, 'falseAttestedShare'), spreadCell(g, p, 'falseAnchoredShare'), spreadCell(g, p, 'trueUnverifiedShare')])))
}

/** How the schedule was played: on real nodes at the time scale, on the model engine in virtual time. */
function timeWording (results: SimResults): string {
  const s = results.scenario
  const perMinute = s.timeScale.realSecondsPerMinute
  if (engineOf(results) !== 'model') return `${s.durationMinutes} simulated minutes at ${perMinute} real s per simulated minute`
  const inbox = 180 / perMinute
  return `${s.durationMinutes} simulated minutes in virtual time (the model engine keeps its own clock, so its latencies are virtual milliseconds; the scenario's time scale, ${perMinute} real s per simulated minute on real nodes, only sets how long a witness waits for a request as the real driver would, 180 real s = ${Number(inbox.toFixed(2))} simulated minutes)`
}

function glossaryHtml (): string {
  return `<dl class="glossary">${GLOSSARY.map((e) => `<dt>${escapeHtml(e.term)}</dt><dd>${escapeHtml(e.meaning)}</dd>`).join('')}</dl>`
}

/** All the plots of the report, in page order. */
async function plotsOf (results: SimResults): Promise<{ policy: Plot | null, sweep: Plot[], latency: Plot | null, trust: Plot[] }> {
  const main = mainGroup(results)
  if (main === undefined) return { policy: null, sweep: [], latency: null, trust: [] }
  const [policy, sweep, latency, trust] = await Promise.all([policyPlot(results, main), sweepPlots(results), latencyPlot(results, main), trustPlots(results, main)])
  return { policy, sweep, latency, trust }
}

export async function reportHtml (results: SimResults): Promise<string> {
  const s = results.scenario
  const main = mainGroup(results)
  const plots = await plotsOf(results)
  const engine = engineOf(results)
  const seeds = seedsOf(results)
  const first = main?.runs[0]
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>isnad simulation: ${escapeHtml(s.name)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:1100px}p.findings{font-size:16px;max-width:60em}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}figure.plot{display:inline-block;margin:.5em}section{border-top:1px solid #ddd;margin-top:1em}dl.glossary dt{font-weight:bold;margin-top:.4em}dl.glossary dd{margin-left:1.5em;max-width:60em}</style>
</head><body><h1>isnad simulation: ${escapeHtml(s.name)}</h1>
<p class="findings">${escapeHtml(findings(results))}</p>
<p>${escapeHtml(s.description)}</p>
<p>${engine === undefined ? '' : `Engine <b>${escapeHtml(engine)}</b>, r`}${engine === undefined ? 'R' : ''}unner <b>${escapeHtml(results.runner)}</b>; seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')}; ${escapeHtml(timeWording(results))}; trust policies: ${policiesOf(results).map((p) => escapeHtml(seriesName(results, p))).join(', ')}; generated ${escapeHtml(results.generatedAt)}.</p>
<section><h2>Trust policies</h2>
${plots.policy === null ? '' : figureOf(plots.policy)}
${main === undefined ? '' : policyTable(results, main)}
</section>
${plots.sweep.length === 0 ? '' : `<section><h2>Sybil sweep</h2>
${plots.sweep.map(figureOf).join('\n')}
${sweepTable(results)}
</section>`}
<section><h2>Delivery and latency</h2>
${plots.latency === null ? '<p>No attestation was delivered: no latency to plot.</p>' : figureOf(plots.latency)}
${plots.trust.map(figureOf).join('\n')}
${first === undefined ? '' : runDetails(first, `the scenario as written, seed ${seedOf(results, first)}`)}
</section>
<section><h2>All runs</h2>
${runsTable(results)}
</section>
<section><h2>Glossary</h2>
${glossaryHtml()}
</section>
</body></html>
`
}

/** The plots as standalone SVG files (for papers and docs), by file name. */
export async function plotFiles (results: SimResults): Promise<Map<string, string>> {
  const plots = await plotsOf(results)
  const all = [plots.policy, ...plots.sweep, plots.latency, ...plots.trust].filter((p): p is Plot => p !== null)
  return new Map(all.map((p) => [p.file, `<?xml version="1.0" encoding="UTF-8"?>\n${p.svg}\n`]))
}

/**
 * Writes results.json (unless `json` is false: a re-render keeps the file it read), results.csv,
 * summary.csv, report.html and plots/*.svg into `directory`; their paths.
 */
export async function writeResults (results: SimResults, directory: string, json = true): Promise<{ json: string, csv: string, summary: string, html: string }> {
  await mkdir(join(directory, 'plots'), { recursive: true })
  const paths = { json: join(directory, 'results.json'), csv: join(directory, 'results.csv'), summary: join(directory, 'summary.csv'), html: join(directory, 'report.html') }
  if (json) await writeFile(paths.json, JSON.stringify(results, null, 2) + '\n')
  await writeFile(paths.csv, resultsCsv(results))
  await writeFile(paths.summary, summaryCsv(results))
  await writeFile(paths.html, await reportHtml(results))
  for (const [name, svg] of await plotFiles(results)) await writeFile(join(directory, 'plots', name), svg)
  return paths
}
