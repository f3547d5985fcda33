import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunResult, SimResults } from './run.js'
import { barChart, escapeHtml, lineChart, type Series } from './svg.js'

/*
 * The outputs of a simulation (docs/simulation.md, "Output"): results.json (everything), results.csv
 * (one row per run and trust policy) and report.html, one self-contained page with inline SVG plots.
 */

const CSV_COLUMNS = [
  'scenario', 'runner', 'nodes', 'sybils', 'policy', 'auc', 'false_anchored_share', 'false_attested_share', 'true_unverified_share',
  'mean_trust_true', 'mean_trust_false', 'sybil_mean_trust', 'memories_published', 'memory_delivery', 'attestation_delivery',
  'latency_p50_ms', 'latency_p99_ms', 'witness_rtt_p50_ms', 'witness_rtt_p99_ms', 'messages_per_node', 'payload_bytes_per_node',
  'cpu_ms_per_node', 'total_seconds', 'driver_lag_p50_ms'
] as const

function csvCell (value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function resultsCsv (results: SimResults): string {
  const rows = results.runs.flatMap((run) => run.metrics.trust.map((t) => [
    results.scenario.name, results.runner, run.nodes, run.sybils, t.policy, t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare,
    t.meanTrustTrue, t.meanTrustFalse, t.sybilMeanTrust, run.metrics.memories.published, run.metrics.delivery.memoryRatio, run.metrics.delivery.attestationRatio,
    run.metrics.delivery.latencyMs.p50, run.metrics.delivery.latencyMs.p99, run.metrics.witness.roundTripMs.p50, run.metrics.witness.roundTripMs.p99,
    run.metrics.perNode?.messagesMean, run.metrics.perNode?.payloadBytesMean, run.metrics.perNode?.cpuMsMean, run.timings.totalSeconds, run.driverLoad.eventLoopLagP50Ms
  ].map(csvCell).join(',')))
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n'
}

function table (headers: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const cell = (v: unknown): string => escapeHtml(v === null || v === undefined ? '—' : String(v))
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`).join('') + '</tbody></table>'
}

function latencyPlot (run: RunResult): string {
  return lineChart('attestation gossip latency (CDF)', 'ms from attest to stored at a node', 'share of deliveries', [{ name: 'all nodes', points: run.metrics.delivery.latencyCdf }], 'latency-cdf', [0, 1])
}

/** One trust-distribution plot per policy, by policy name. */
function trustPlots (run: RunResult): Array<[string, string]> {
  const bins = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}`)
  return run.metrics.trust.map((t) => [t.policy, barChart(`trust distribution, ${t.policy}`, 'trust score (bin start)', 'observer × memory pairs', bins,
    [{ name: 'true memories', values: t.histogram.true }, { name: 'false memories', values: t.histogram.false }], 'trust-distribution')])
}

function runSection (run: RunResult, title: string): string {
  const m = run.metrics
  const distributions = trustPlots(run).map(([, plot]) => plot).join('')
  return `<section><h2>${escapeHtml(title)}</h2>` +
    `<p>${run.nodes} nodes (${Object.entries(run.roles).map(([r, n]) => `${n} ${r}`).join(', ')}); observers ${run.observers.join(', ')}; ` +
    `setup ${run.timings.setupSeconds.toFixed(1)} s, activity ${run.timings.activitySeconds.toFixed(1)} s, total ${run.timings.totalSeconds} s; ` +
    `driver during the activity: event-loop lag p50 ${run.driverLoad.eventLoopLagP50Ms} ms, max ${run.driverLoad.eventLoopLagMaxMs} ms, CPU ${run.driverLoad.cpuPercent}%; ${run.relinks} dropped links redialled.</p>` +
    table(['memories published', 'true', 'false', 'memory delivery', 'attestation delivery', 'gossip p50 ms', 'p90', 'p99', 'request → inbox p50 ms', 'witness RTT p50 ms', 'p99', 'missed answers'],
      [[m.memories.published, m.memories.true, m.memories.false, m.delivery.memoryRatio, m.delivery.attestationRatio, m.delivery.latencyMs.p50, m.delivery.latencyMs.p90,
        m.delivery.latencyMs.p99, m.witness.requestDelayMs.p50, m.witness.roundTripMs.p50, m.witness.roundTripMs.p99, m.witness.missedAnswers]]) +
    table(['policy', 'AUC', 'false ≥ Anchored', 'false ≥ Attested', 'true Unverified', 'mean trust (true)', 'mean trust (false)', 'Sybil mean trust'],
      m.trust.map((t) => [t.policy, t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare, t.meanTrustTrue, t.meanTrustFalse, t.sybilMeanTrust])) +
    (m.perNode === null
      ? '<p>Per-node messages, bytes and CPU: not measured by this runner.</p>'
      : table(['messages / node', 'max', 'payload bytes / node', 'verifications / node', 'CPU ms / node'],
        [[m.perNode.messagesMean, m.perNode.messagesMax, m.perNode.payloadBytesMean, m.perNode.verificationsMean, m.perNode.cpuMsMean]])) +
    latencyPlot(run) +
    distributions +
    (run.notes.length === 0 ? '' : `<ul class="notes">${run.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`) +
    '</section>'
}

/** One series per policy of a Sybil-curve quantity against the Sybil count. */
function sybilSeries (results: SimResults, key: 'sybilMeanTrust' | 'falseAnchoredShare'): Series[] {
  return results.policies.map((policy) => ({
    name: policy,
    points: results.sybilCurve.flatMap((p): Array<[number, number]> => p.policy === policy && p[key] !== null ? [[p.sybils, p[key] as number]] : [])
  }))
}

function sybilPlot (results: SimResults): string {
  return lineChart('mean trust of Sybil memories vs Sybil count', 'Sybil nodes', 'mean trust at observers', sybilSeries(results, 'sybilMeanTrust'), 'sybil-curve', [0, 1])
}

export function reportHtml (results: SimResults): string {
  const [main, ...sweep] = results.runs
  const falseCurve = sybilSeries(results, 'falseAnchoredShare')
  const s = results.scenario
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>isnad simulation: ${escapeHtml(s.name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}figure.plot{display:inline-block;margin:.5em}section{border-top:1px solid #ddd;margin-top:1em}</style>
</head><body><h1>isnad simulation: ${escapeHtml(s.name)}</h1>
<p>${escapeHtml(s.description)}</p>
<p>Runner <b>${escapeHtml(results.runner)}</b>, seed ${s.seed}, ${s.durationMinutes} simulated minutes at ${s.timeScale.realSecondsPerMinute} real s per minute; trust policies: ${results.policies.map(escapeHtml).join(', ')}; generated ${escapeHtml(results.generatedAt)}.</p>
${main === undefined ? '' : runSection(main, 'the scenario')}
<section><h2>Sybil influence</h2>
${sybilPlot(results)}
${lineChart('false memories rated Anchored or better vs Sybil count', 'Sybil nodes', 'share of false memories', falseCurve, 'sybil-false-anchored', [0, 1])}
${table(['Sybils', 'policy', 'Sybil mean trust', 'Sybil ≥ Attested', 'false ≥ Anchored', 'AUC'], results.sybilCurve.map((p) => [p.sybils, p.policy, p.sybilMeanTrust, p.sybilAttestedShare, p.falseAnchoredShare, p.auc]))}
</section>
${sweep.map((run) => runSection(run, `sweep: ${run.sybils} Sybils`)).join('\n')}
</body></html>
`
}

/** The main run's plots as standalone SVG files (for papers and docs), by file name. */
export function plotFiles (results: SimResults): Map<string, string> {
  const files = new Map<string, string>()
  const svgOf = (html: string): string | undefined => /<svg[\s\S]*<\/svg>/.exec(html)?.[0]
  const add = (name: string, html: string): void => {
    const svg = svgOf(html)
    if (svg !== undefined) files.set(name, `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`)
  }
  const main = results.runs[0]
  if (main !== undefined) {
    add('latency-cdf.svg', latencyPlot(main))
    for (const [policy, plot] of trustPlots(main)) add(`trust-${policy}.svg`, plot)
  }
  add('sybil-curve.svg', sybilPlot(results))
  return files
}

/**
 * Writes results.json (unless `json` is false: a re-render keeps the file it read), results.csv,
 * report.html and plots/*.svg into `directory`; their paths.
 */
export async function writeResults (results: SimResults, directory: string, json = true): Promise<{ json: string, csv: string, html: string }> {
  await mkdir(join(directory, 'plots'), { recursive: true })
  const paths = { json: join(directory, 'results.json'), csv: join(directory, 'results.csv'), html: join(directory, 'report.html') }
  if (json) await writeFile(paths.json, JSON.stringify(results, null, 2) + '\n')
  await writeFile(paths.csv, resultsCsv(results))
  await writeFile(paths.html, reportHtml(results))
  for (const [name, svg] of plotFiles(results)) await writeFile(join(directory, 'plots', name), svg)
  return paths
}
