import { parse, View } from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'

/*
 * The report's plots (report.ts), as Vega-Lite specifications compiled and rendered to static SVG
 * here in Node: scales, nice ticks, legends and error bars come from the grammar, not from
 * hand-placed coordinates. Rendered with Vega's headless view (renderer 'none', text widths
 * estimated: no canvas, no DOM), so the report holds plain SVG and no script, and the same data
 * always gives the same markup.
 *
 * Why Vega-Lite rather than Observable Plot (docs/simulation.md, "Report"): Plot needs a DOM shim in
 * Node (jsdom or linkedom) and draws colour legends as HTML beside the SVG, so the standalone
 * plots/*.svg would lose them; Vega renders titles and legends inside the SVG from a string
 * renderer. The cost: about 80 packages (vega, vega-lite and their d3 modules) against about 60.
 */

/** Every plot: white background, system font, one width. */
const CONFIG = {
  background: 'white',
  font: 'system-ui, sans-serif',
  view: { stroke: '#ddd' },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#eee' },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom', direction: 'horizontal', labelLimit: 0 },
  title: { fontSize: 14, anchor: 'start' },
  range: { category: ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'] }
} as const

const WIDTH = 480
const HEIGHT = 260

/** A Vega-Lite specification rendered to one SVG element. */
export async function renderSvg (spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile({ config: CONFIG, ...spec } as TopLevelSpec).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

/** A whole-number axis: sweeps over node counts never show 12.5 Sybils. */
const wholeNumberAxis = { format: 'd', tickMinStep: 1 } as const
const shareScale = { domain: [0, 1] as [number, number] }

export interface SweepPoint {
  x: number
  series: string
  mean: number
  /** The 95 % confidence interval of the mean over the seeds (the mean itself with one seed). */
  low: number
  high: number
  /** Seeds behind the point. */
  n: number
  /** false: a run without the witness checks (the baseline), drawn dashed. @default true */
  checks?: boolean
}

/** The baseline's lines are dashed, so a policy with and without the checks reads as a pair. */
const CHECKS_DASH = { field: 'checks', type: 'nominal', title: null, scale: { domain: ['with the checks', 'without the checks'], range: [[1, 0], [6, 4]] } } as const

/**
 * A quantity against a whole-number x (the Sybil count of a sweep), one line per series (policy, with
 * or without the checks) through the means over seeds, with a bar over the 95 % confidence interval
 * of the mean where there are several seeds.
 */
export function sweepSpec (title: string, xTitle: string, yTitle: string, points: readonly SweepPoint[], share = true): TopLevelSpec {
  const x = { field: 'x', type: 'quantitative', title: xTitle, axis: wholeNumberAxis, scale: { zero: false, nice: false, padding: 12 } } as const
  const y = { type: 'quantitative', title: yTitle, ...(share ? { scale: shareScale } : {}) } as const
  const color = { field: 'series', type: 'nominal', title: null } as const
  const spread = points.some((p) => p.n > 1)
  const baseline = points.some((p) => p.checks === false)
  return {
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values: points.map((p) => ({ ...p, checks: p.checks === false ? 'without the checks' : 'with the checks' })) },
    layer: [
      ...(spread ? [{ mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' }, color } } as const] : []),
      { mark: { type: 'line', point: { size: 50, filled: true } }, encoding: { x, y: { ...y, field: 'mean' }, color, ...(baseline ? { strokeDash: CHECKS_DASH } : {}), tooltip: [{ field: 'series' }, { field: 'x' }, { field: 'mean', format: '.3f' }, { field: 'low', title: '95% CI low', format: '.3f' }, { field: 'high', title: '95% CI high', format: '.3f' }, { field: 'n', title: 'seeds' }] } }
    ]
  } as TopLevelSpec
}

export interface GroupedBar {
  category: string
  group: string
  mean: number
  /** The 95 % confidence interval of the mean over the seeds (the mean itself with one seed). */
  low: number
  high: number
  n: number
}

/** Bars per category, one per group side by side (xOffset), with the 95 % confidence interval where there are several seeds. */
export function groupedBarSpec (title: string, xTitle: string, yTitle: string, bars: readonly GroupedBar[], options: { share?: boolean, categories?: readonly string[], counts?: boolean, colours?: Readonly<Record<string, string>> } = {}): TopLevelSpec {
  const x = { field: 'category', type: 'nominal', title: xTitle, axis: { labelAngle: 0, labelLimit: 0 }, ...(options.categories === undefined ? {} : { sort: [...options.categories] }) } as const
  const y = { type: 'quantitative', title: yTitle, ...(options.share === true ? { scale: shareScale } : {}), ...(options.counts === true ? { axis: wholeNumberAxis } : {}) } as const
  const colours = options.colours
  const color = { field: 'group', type: 'nominal', title: null, ...(colours === undefined ? {} : { scale: { domain: Object.keys(colours), range: Object.values(colours) } }) } as const
  const xOffset = { field: 'group', type: 'nominal' } as const
  const spread = bars.some((b) => b.n > 1)
  return {
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values: bars.map((b) => ({ ...b })) },
    layer: [
      { mark: { type: 'bar' }, encoding: { x, xOffset, y: { ...y, field: 'mean' }, color, tooltip: [{ field: 'category' }, { field: 'group' }, { field: 'mean', format: '.3f' }] } },
      ...(spread ? [{ mark: { type: 'rule', color: '#333' }, encoding: { x, xOffset, y: { ...y, field: 'low' }, y2: { field: 'high' } } } as const] : [])
    ]
  } as TopLevelSpec
}

/** Cumulative distributions, one line per series. */
export function cdfSpec (title: string, xTitle: string, series: ReadonlyArray<{ name: string, points: ReadonlyArray<[number, number]> }>): TopLevelSpec {
  const values = series.flatMap((s) => s.points.map(([x, y]) => ({ series: s.name, x, y })))
  return {
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: xTitle },
      y: { field: 'y', type: 'quantitative', title: 'share of deliveries', scale: shareScale },
      color: { field: 'series', type: 'nominal', title: null, legend: series.length > 1 ? {} : null }
    }
  } as TopLevelSpec
}
