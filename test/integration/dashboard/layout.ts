/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The functions below run in the page (Playwright evaluate): they need the DOM types.
import type { Page } from 'playwright-core'
import type { Box, Segment } from '../../../src/dashboard/browser/edges.js'

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
