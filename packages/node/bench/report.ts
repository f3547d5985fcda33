import { cpus, loadavg, totalmem } from 'node:os'

/** One measured figure with the baseline it is divided by, both from the same run. */
export interface Figure {
  section: string
  name: string
  value: number
  unit: string
  baseline: { name: string, value: number, unit: string }
  /** value / baseline (rates: median of the per-round ratios; latencies: p99 / baseline p99). */
  ratio: number
  target?: { text: string, met: boolean }
  /** Extra numbers kept in results.json: per-round rates, percentiles, sizes. */
  detail?: Record<string, number | number[] | string>
}

export interface Machine {
  cpus: number
  cpuModel: string
  memoryGiB: number
  node: string
  platform: string
  /** 1-minute load average at the start and at the end of the run: how shared the machine was. */
  loadAverage: { start: number, end: number }
}

export interface Results {
  date: string
  command: string
  quick: boolean
  durationSeconds: number
  machine: Machine
  figures: Figure[]
}

export function describeMachine (loadAtStart: number): Machine {
  const list = cpus()
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: { start: loadAtStart, end: loadavg()[0] ?? 0 }
  }
}

export function formatNumber (value: number, unit: string): string {
  if (unit === 'ms') return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`
  return `${Math.round(value).toLocaleString('en-US')} ${unit}`
}

/** Latencies show their three percentiles; the figure's value is the p99. */
function formatValue (f: Figure): string {
  const p50 = f.detail?.p50
  const p95 = f.detail?.p95
  if (f.unit !== 'ms' || typeof p50 !== 'number' || typeof p95 !== 'number') return formatNumber(f.value, f.unit)
  return `p50 ${formatNumber(p50, 'ms')} · p95 ${formatNumber(p95, 'ms')} · p99 ${formatNumber(f.value, 'ms')}`
}

function formatRatio (ratio: number, unit: string): string {
  return unit === 'ms' ? `${ratio.toFixed(1)}×` : ratio >= 10 ? `${ratio.toFixed(0)}×` : `${ratio.toFixed(3)}×`
}

function pad (text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width)
}

/** A plain-text table, one line per figure, grouped by section. */
export function formatTable (results: Results): string {
  const rows = results.figures.map((f) => [
    f.name,
    formatValue(f),
    `${f.baseline.name}: ${formatNumber(f.baseline.value, f.baseline.unit)}`,
    formatRatio(f.ratio, f.unit),
    f.target === undefined ? '' : `${f.target.text} ${f.target.met ? 'MET' : 'NOT MET'}`
  ])
  const header = ['figure', 'value', 'baseline (same run)', 'ratio', 'target']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
  const line = (cells: string[]): string => cells.map((c, i) => pad(c, widths[i] as number, i === 1 || i === 3)).join('  ').trimEnd()
  const out: string[] = []
  const m = results.machine
  out.push(`isnad benchmarks — ${results.date} — ${m.cpus} × ${m.cpuModel}, node ${m.node}, load ${m.loadAverage.start.toFixed(2)} → ${m.loadAverage.end.toFixed(2)}${results.quick ? ' — QUICK (small sizes, not for BENCHMARKS.md)' : ''}`)
  out.push('')
  out.push(line(header))
  out.push(line(widths.map((w) => '-'.repeat(w))))
  let section = ''
  results.figures.forEach((f, i) => {
    if (f.section !== section) {
      section = f.section
      out.push(`${section}`)
    }
    out.push(line(rows[i] as string[]))
  })
  out.push('')
  out.push(`ratio: rates are value ÷ baseline (median of per-round ratios, rounds interleaved); latencies are p99 ÷ baseline p99. ${results.durationSeconds.toFixed(0)} s.`)
  return out.join('\n')
}
