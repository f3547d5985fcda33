/*
 * Minimal inline SVG charts for the report: line charts (latency CDF, the Sybil curve) and grouped
 * bar charts (trust distributions). No library and no network access: the report opens offline.
 */

export interface Series {
  name: string
  points: Array<[number, number]>
}

const WIDTH = 560
const HEIGHT = 300
const MARGIN = { left: 56, right: 16, top: 28, bottom: 44 }
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf']

export function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

function fmt (value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(1) : value.toFixed(2)
}

function frame (title: string, xLabel: string, yLabel: string, body: string, legend: string[], kind: string): string {
  const items = legend.map((name, i) =>
    `<g transform="translate(${MARGIN.left + 8 + i * 150},${MARGIN.top - 12})"><rect width="10" height="10" fill="${COLOURS[i % COLOURS.length]}"/><text x="14" y="9" font-size="11">${escapeHtml(name)}</text></g>`).join('')
  return `<figure class="plot" data-plot="${kind}"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(title)}">` +
    `<text x="${WIDTH / 2}" y="12" text-anchor="middle" font-size="13" font-weight="bold">${escapeHtml(title)}</text>${items}${body}` +
    `<text x="${(WIDTH + MARGIN.left) / 2}" y="${HEIGHT - 6}" text-anchor="middle" font-size="11">${escapeHtml(xLabel)}</text>` +
    `<text transform="translate(12,${HEIGHT / 2}) rotate(-90)" text-anchor="middle" font-size="11">${escapeHtml(yLabel)}</text></svg></figure>`
}

function axes (xMin: number, xMax: number, yMin: number, yMax: number): { x: (v: number) => number, y: (v: number) => number, svg: string } {
  const w = WIDTH - MARGIN.left - MARGIN.right
  const h = HEIGHT - MARGIN.top - MARGIN.bottom
  const x = (v: number): number => MARGIN.left + (xMax === xMin ? w / 2 : (v - xMin) / (xMax - xMin) * w)
  const y = (v: number): number => MARGIN.top + h - (yMax === yMin ? h / 2 : (v - yMin) / (yMax - yMin) * h)
  let svg = `<g class="axes" stroke="#333" stroke-width="1"><line x1="${MARGIN.left}" y1="${MARGIN.top + h}" x2="${MARGIN.left + w}" y2="${MARGIN.top + h}"/><line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + h}"/></g>`
  for (let k = 0; k <= 4; k++) {
    const xv = xMin + (xMax - xMin) * k / 4
    const yv = yMin + (yMax - yMin) * k / 4
    svg += `<text x="${x(xv)}" y="${MARGIN.top + h + 14}" text-anchor="middle" font-size="10">${fmt(xv)}</text>`
    svg += `<text x="${MARGIN.left - 4}" y="${y(yv) + 3}" text-anchor="end" font-size="10">${fmt(yv)}</text>`
  }
  return { x, y, svg }
}

export function lineChart (title: string, xLabel: string, yLabel: string, series: readonly Series[], kind: string, yRange?: [number, number]): string {
  const all = series.flatMap((s) => s.points)
  if (all.length === 0) return `<p class="empty" data-plot="${kind}">${escapeHtml(title)}: no data</p>`
  const xs = all.map((p) => p[0])
  const ys = all.map((p) => p[1])
  const [yMin, yMax] = yRange ?? [Math.min(0, ...ys), Math.max(...ys)]
  const a = axes(Math.min(...xs), Math.max(...xs), yMin, yMax)
  const lines = series.map((s, i) => {
    const d = s.points.map(([px, py], k) => `${k === 0 ? 'M' : 'L'}${a.x(px).toFixed(1)},${a.y(py).toFixed(1)}`).join('')
    const dots = s.points.length <= 20 ? s.points.map(([px, py]) => `<circle cx="${a.x(px).toFixed(1)}" cy="${a.y(py).toFixed(1)}" r="3" fill="${COLOURS[i % COLOURS.length]}"/>`).join('') : ''
    return `<path class="series" d="${d}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"/>${dots}`
  }).join('')
  return frame(title, xLabel, yLabel, a.svg + lines, series.map((s) => s.name), kind)
}

/** Bars per category (x labels), one bar per group within each. */
export function barChart (title: string, xLabel: string, yLabel: string, categories: readonly string[], groups: ReadonlyArray<{ name: string, values: readonly number[] }>, kind: string): string {
  const max = Math.max(1, ...groups.flatMap((g) => g.values))
  const w = WIDTH - MARGIN.left - MARGIN.right
  const h = HEIGHT - MARGIN.top - MARGIN.bottom
  const a = axes(0, 1, 0, max)
  const slot = w / Math.max(1, categories.length)
  const bar = slot * 0.8 / Math.max(1, groups.length)
  // The axes without their numeric x ticks: the categories label the x axis instead.
  let body = a.svg.replace(/<text[^>]*text-anchor="middle" font-size="10">[^<]*<\/text>/g, '')
  categories.forEach((label, c) => {
    body += `<text x="${MARGIN.left + slot * (c + 0.5)}" y="${MARGIN.top + h + 14}" text-anchor="middle" font-size="10">${escapeHtml(label)}</text>`
    groups.forEach((g, i) => {
      const v = g.values[c] ?? 0
      const top = a.y(v)
      body += `<rect class="bar" x="${(MARGIN.left + slot * c + slot * 0.1 + bar * i).toFixed(1)}" y="${top.toFixed(1)}" width="${bar.toFixed(1)}" height="${(MARGIN.top + h - top).toFixed(1)}" fill="${COLOURS[i % COLOURS.length]}"><title>${escapeHtml(`${g.name} ${label}: ${v}`)}</title></rect>`
    })
  })
  return frame(title, xLabel, yLabel, body, groups.map((g) => g.name), kind)
}
