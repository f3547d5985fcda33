import type { LocalAgent } from './agents.js'
import type { AnchorLink, Chain, ChainLink, WitnessLink } from './chain.js'
import { agentTag, h, safeText, svg } from './dom.js'
import { edgeBetween, type Box } from './edges.js'
import { escapeBidiControls } from './text.js'

/*
 * The isnad chain as a graph: the memory its author signed on the left; on the right, in one
 * column, its witnesses (each with verdict, notes, a partial's claims) and below them its anchors
 * (each with the node's check of it). Every edge runs from the memory to one box across the empty
 * gutter between the two columns, so no edge can pass behind another box (edges.ts). The boxes are
 * HTML, so text wraps instead of being clipped and other agents' text goes through safeText; the
 * edges are an SVG layer drawn from the boxes' measured positions, again whenever the graph resizes.
 * Each box says whether this browser verified the record's signature and id itself.
 */

export function drawChain (chain: Chain, agents: readonly LocalAgent[]): HTMLElement {
  const edges = svg('svg', { class: 'chain-edges', 'aria-hidden': 'true', 'data-testid': 'chain-edges' })
  const source = box('author', 'memory', chain.author, agents, [])
  const witnesses = chain.witnesses.map((w) => ({ link: w, kind: `verdict-${w.verdict}`, node: box('witness', w.verdict, w, agents, witnessDetail(w)) }))
  const anchors = chain.anchors.map((a) => ({ link: a, kind: `anchor-${a.state}`, node: box('anchor', `${a.type} · ${a.state}`, a, agents, anchorDetail(a)) }))
  const targets = [...witnesses, ...anchors]
  const root = h('div', { class: 'chain', role: 'group', 'aria-label': 'isnad chain', 'data-testid': 'chain-graph' },
    edges,
    h('div', { class: 'chain-source' }, h('div', { class: 'column-title' }, 'author'), source),
    h('div', { class: 'chain-targets' },
      h('div', { class: 'column-title' }, 'witnesses'),
      chain.witnesses.length === 0 ? h('p', { class: 'empty-note' }, 'no witnesses yet') : null,
      ...witnesses.map((t) => t.node),
      h('div', { class: 'column-title' }, 'anchors'),
      chain.anchors.length === 0 ? h('p', { class: 'empty-note' }, 'no anchors yet') : null,
      ...anchors.map((t) => t.node)))

  const redraw = (): void => {
    const origin = root.getBoundingClientRect()
    const at = (element: Element): Box => {
      const r = element.getBoundingClientRect()
      // Relative to the padding box, where the absolutely placed SVG layer starts.
      return { x: r.left - origin.left - root.clientLeft, y: r.top - origin.top - root.clientTop, width: r.width, height: r.height }
    }
    edges.setAttribute('width', String(root.scrollWidth))
    edges.setAttribute('height', String(root.scrollHeight))
    const from = at(source)
    edges.replaceChildren(...targets.map(({ link, kind, node }) => {
      const line = edgeBetween(from, at(node))
      return svg('line', { class: `edge ${kind}`, x1: line.x1, y1: line.y1, x2: line.x2, y2: line.y2, 'data-from': chain.author.id, 'data-to': link.id })
    }))
  }
  new ResizeObserver(redraw).observe(root)
  return root
}

type Detail = Array<HTMLElement | null>

function box (role: 'author' | 'witness' | 'anchor', heading: string, link: ChainLink, agents: readonly LocalAgent[], detail: Detail): HTMLElement {
  const valid = link.check.valid
  const status = valid ? '✓ signature verified in this browser' : `✗ ${link.check.reason ?? 'not verified'}`
  return h('div', {
    class: `node ${role} ${valid ? 'valid' : 'invalid'}`,
    'data-role': role,
    'data-valid': String(valid),
    'data-id': link.id,
    title: escapeBidiControls(`${role === 'author' ? 'memory' : role} ${link.id}\nsigned by ${link.signer}\n${status}`)
  },
  h('div', { class: 'node-heading' }, heading),
  h('div', { class: 'node-agent' }, role === 'anchor' ? 'anchored by ' : 'signed by ', link.signer === '' ? '(unknown)' : agentTag(link.signer, agents)),
  link.time === '' ? null : h('div', { class: 'node-time' }, link.time),
  ...detail,
  h('div', { class: `node-status ${valid ? 'ok' : 'bad'}`, 'data-testid': 'node-status' }, valid ? '✓ verified here' : `✗ not verified: ${link.check.reason ?? ''}`))
}

function witnessDetail (link: WitnessLink): Detail {
  return [
    link.notes === undefined ? null : h('div', { class: 'node-notes', 'data-testid': 'witness-notes' }, 'notes: ', safeText(link.notes)),
    link.claims === undefined
      ? null
      : h('div', { class: 'node-claims', 'data-testid': 'witness-claims' }, 'confirms only:',
        h('ul', {}, ...link.claims.map((c) => h('li', {}, safeText(c)))))
  ]
}

function anchorDetail (link: AnchorLink): Detail {
  return [
    h('div', { class: 'node-reference mono', 'data-testid': 'anchor-reference' }, safeText(link.reference)),
    h('div', { class: `node-state state-${link.state}`, 'data-testid': 'anchor-state' },
      `node's check: ${link.state}`, link.stateReason === undefined ? null : ' — ', link.stateReason === undefined ? null : safeText(link.stateReason))
  ]
}
