import type { AnchorLink, Chain, ChainLink, WitnessLink } from './chain.js'
import { shortId, svg } from './dom.js'

/*
 * The isnad chain as an SVG graph, left to right: the author's signed memory → its witnesses, each
 * edge coloured by the verdict → the anchors with their verification state. Each box says whether
 * this browser verified the record's signature and id itself.
 */

const BOX = { width: 220, height: 70 }
const COLUMN_X = [16, 300, 584] as const
const ROW = 88
const TOP = 28

interface Placed { x: number, y: number }

export function drawChain (chain: Chain): SVGElement {
  const rows = Math.max(1, chain.witnesses.length, chain.anchors.length)
  const height = TOP + rows * ROW + 8
  const root = svg('svg', { viewBox: `0 0 ${COLUMN_X[2] + BOX.width + 16} ${height}`, role: 'img', 'aria-label': 'isnad chain', 'data-testid': 'chain-graph', class: 'chain' })
  for (const [i, label] of ['author', 'witnesses', 'anchors'].entries()) {
    root.append(svg('text', { x: COLUMN_X[i as 0 | 1 | 2], y: 16, class: 'column-title' }, label))
  }
  const author: Placed = { x: COLUMN_X[0], y: TOP + ((rows - 1) * ROW) / 2 }
  const witnesses = chain.witnesses.map((w, i) => ({ link: w, at: { x: COLUMN_X[1], y: TOP + i * ROW } }))
  const anchors = chain.anchors.map((a, i) => ({ link: a, at: { x: COLUMN_X[2], y: TOP + i * ROW } }))
  // Edges first, so the boxes sit on top of them.
  for (const { link, at } of witnesses) root.append(edge(author, at, `verdict-${link.verdict}`, link.verdict))
  for (const { link, at } of anchors) root.append(edge(author, at, `anchor-${link.state}`, link.type))
  if (chain.witnesses.length === 0) root.append(note(COLUMN_X[1], TOP + 24, 'no witnesses yet'))
  if (chain.anchors.length === 0) root.append(note(COLUMN_X[2], TOP + 24, 'no anchors yet'))
  root.append(box(author, 'author', 'memory, signed by', chain.author))
  for (const { link, at } of witnesses) root.append(box(at, 'witness', link.verdict, link, witnessDetail(link)))
  for (const { link, at } of anchors) root.append(box(at, 'anchor', `${link.type} · ${link.state}`, link, anchorDetail(link)))
  return root
}

function edge (from: Placed, to: Placed, kind: string, label: string): SVGElement {
  const x1 = from.x + BOX.width
  const y1 = from.y + BOX.height / 2
  const x2 = to.x
  const y2 = to.y + BOX.height / 2
  const bend = (x2 - x1) / 2
  return svg('g', { class: `edge ${kind}` },
    svg('path', { d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}` }),
    svg('text', { x: x2 - 8, y: y2 - 6, 'text-anchor': 'end', class: 'edge-label' }, label))
}

function note (x: number, y: number, text: string): SVGElement {
  return svg('text', { x, y, class: 'empty-note' }, text)
}

function box (at: Placed, role: string, heading: string, link: ChainLink, detail?: string): SVGElement {
  const valid = link.check.valid
  const status = valid ? '✓ signature verified in this browser' : `✗ ${link.check.reason ?? 'not verified'}`
  const tooltip = [`${role} ${link.id}`, `signed by ${link.signer}`, link.time, detail, status].filter((l) => l !== undefined && l !== '').join('\n')
  return svg('g', { class: `node ${role} ${valid ? 'valid' : 'invalid'}`, 'data-role': role, 'data-valid': String(valid), 'data-id': link.id },
    svg('title', {}, tooltip),
    svg('rect', { x: at.x, y: at.y, width: BOX.width, height: BOX.height, rx: 8 }),
    svg('text', { x: at.x + 10, y: at.y + 20, class: 'node-heading' }, heading),
    svg('text', { x: at.x + 10, y: at.y + 38, class: 'node-signer' }, shortId(link.signer)),
    svg('text', { x: at.x + 10, y: at.y + 58, class: `node-status ${valid ? 'ok' : 'bad'}` }, valid ? '✓ verified here' : '✗ not verified'))
}

function witnessDetail (link: WitnessLink): string | undefined {
  return link.notes === undefined ? undefined : `notes: ${link.notes}`
}

function anchorDetail (link: AnchorLink): string {
  return `${link.type} ${link.reference} (node's check: ${link.state}${link.stateReason === undefined ? '' : `, ${link.stateReason}`})`
}
