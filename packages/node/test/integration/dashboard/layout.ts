/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The functions below run in the page (Playwright evaluate): they need the DOM types.
import type { Page } from 'playwright-core'
import type { Box, Segment } from '../../../src/dashboard/browser/edges.js'
import { segmentCrossesBox } from '../../fixtures/geometry.js'

/*
 * What the dashboard e2e test reads of the laid-out page: boxes and edges of the chain graph in page
 * coordinates, text that overflows its box, placeholders wider than their field, the screen order
 * of characters. Positions come from the real browser's layout (getBoundingClientRect), never from
 * pixels of a screenshot.
 */

export interface GraphNode { id: string, role: string, box: Box }
export interface GraphEdge { from: string, to: string, segment: Segment, kind: string }

/** The chain graph's node boxes and edge segments, in page coordinates. */
export async function readChainGraph (page: Page): Promise<{ nodes: GraphNode[], edges: GraphEdge[] }> {
  return await page.locator('[data-testid="chain-graph"]').evaluate((graph) => {
    const boxOf = (e: Element): Box => {
      const r = e.getBoundingClientRect()
      return { x: r.left, y: r.top, width: r.width, height: r.height }
    }
    const layer = graph.querySelector('[data-testid="chain-edges"]')
    if (layer === null) throw new Error('the chain graph has no edge layer')
    const origin = layer.getBoundingClientRect()
    const nodes = [...graph.querySelectorAll('[data-role]')].map((n) => ({ id: n.getAttribute('data-id') ?? '', role: n.getAttribute('data-role') ?? '', box: boxOf(n) }))
    const edges = [...layer.querySelectorAll('line')].map((l) => {
      const at = (name: string): number => Number(l.getAttribute(name))
      return {
        from: l.getAttribute('data-from') ?? '',
        to: l.getAttribute('data-to') ?? '',
        kind: l.getAttribute('class') ?? '',
        segment: { x1: origin.left + at('x1'), y1: origin.top + at('y1'), x2: origin.left + at('x2'), y2: origin.top + at('y2') }
      }
    })
    return { nodes, edges }
  })
}

/**
 * What is wrong with a drawn chain graph, empty when nothing is: one edge from the memory's box to
 * each of the `targets` witness and anchor boxes, starting on the memory's right side and ending on
 * the target's left side, through no other box; no two boxes overlapping.
 */
export function chainProblems ({ nodes, edges }: { nodes: GraphNode[], edges: GraphEdge[] }, targets: number): string[] {
  const problems: string[] = []
  const author = nodes.find((n) => n.role === 'author')
  if (author === undefined) return ['no memory box']
  const ends = nodes.filter((n) => n !== author)
  if (ends.length !== targets) problems.push(`${ends.length} witness and anchor boxes, not ${targets}`)
  const unlinked = ends.filter((n) => edges.filter((e) => e.to === n.id).length !== 1)
  if (unlinked.length > 0 || edges.length !== ends.length) problems.push(`${edges.length} edges for ${ends.length} boxes; not exactly one edge to ${unlinked.map((n) => n.id).join(', ')}`)
  const within = (v: number, from: number, size: number): boolean => v > from && v < from + size
  for (const edge of edges) {
    const to = ends.find((n) => n.id === edge.to)
    if (edge.from !== author.id || to === undefined) {
      problems.push(`edge ${edge.from} → ${edge.to} does not join the memory to one of its boxes`)
      continue
    }
    const { x1, y1, x2, y2 } = edge.segment
    if (Math.abs(x1 - (author.box.x + author.box.width)) >= 1 || !within(y1, author.box.y, author.box.height)) problems.push(`edge to ${to.id} does not start on the memory's right side`)
    if (Math.abs(x2 - to.box.x) >= 1 || !within(y2, to.box.y, to.box.height)) problems.push(`edge to ${to.id} does not end on its box's left side`)
    for (const other of nodes.filter((n) => n !== author && n !== to)) {
      if (segmentCrossesBox(edge.segment, other.box)) problems.push(`edge to ${to.role} ${to.id} passes through ${other.role} ${other.id}`)
    }
  }
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) {
      const apart = a.box.x + a.box.width <= b.box.x || b.box.x + b.box.width <= a.box.x || a.box.y + a.box.height <= b.box.y || b.box.y + b.box.height <= a.box.y
      if (!apart) problems.push(`${a.role} ${a.id} overlaps ${b.role} ${b.id}`)
    }
  }
  return problems
}

/**
 * The text of every element matching `selector` that does not fit inside it: each text node's
 * rendered line boxes (a Range's client rects) must lie within the element's box, and the element
 * must not scroll sideways.
 */
export async function clippedText (page: Page, selector: string): Promise<string[]> {
  return await page.locator(selector).evaluateAll((elements) => {
    const clipped: string[] = []
    for (const element of elements) {
      const outer = element.getBoundingClientRect()
      if (element.scrollWidth > element.clientWidth + 1) clipped.push(`${element.getAttribute('data-id') ?? element.className}: scrolls sideways`)
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if ((node.textContent ?? '').trim() === '') continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const r of range.getClientRects()) {
          if (r.left < outer.left - 1 || r.right > outer.right + 1 || r.top < outer.top - 1 || r.bottom > outer.bottom + 1) {
            clipped.push(`"${node.textContent ?? ''}" outside its box`)
          }
        }
      }
    }
    return clipped
  })
}

/** Every visible field whose placeholder is wider than the room the field gives its text. */
export async function cutPlaceholders (page: Page): Promise<string[]> {
  return await page.locator('input[placeholder]').evaluateAll((inputs) => {
    const context = document.createElement('canvas').getContext('2d')
    if (context === null) throw new Error('no 2d canvas')
    const cut: string[] = []
    for (const input of inputs as HTMLInputElement[]) {
      if (input.offsetParent === null) continue // not displayed
      const style = getComputedStyle(input)
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      // A number field keeps room for its spin buttons.
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (input.type === 'number' ? 18 : 0)
      const needed = context.measureText(input.placeholder).width
      if (needed > room) cut.push(`${input.placeholder}: needs ${needed.toFixed(0)} px, has ${room.toFixed(0)}`)
    }
    return cut
  })
}

/**
 * The screen x of each character of `word` where it first occurs in the element's text: in logical
 * order on screen, these increase from the first character to the last.
 */
export async function characterPositions (page: Page, selector: string, word: string): Promise<number[]> {
  return await page.locator(selector).first().evaluate((element, w) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const at = (node.textContent ?? '').indexOf(w)
      if (at < 0) continue
      return [...w].map((_, i) => {
        const range = document.createRange()
        range.setStart(node, at + i)
        range.setEnd(node, at + i + 1)
        return range.getBoundingClientRect().left
      })
    }
    throw new Error(`no text "${w}" in ${element.outerHTML.slice(0, 200)}`)
  }, word)
}
