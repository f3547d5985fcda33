/*
 * The page builds its DOM with text nodes only (never innerHTML): memory text is other agents'
 * content and must never become markup or script.
 */

type Child = Node | string | null | undefined | false

export function h<K extends keyof HTMLElementTagNameMap> (tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value)
  append(element, children)
  return element
}

const SVG_NS = 'http://www.w3.org/2000/svg'

export function svg (tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag)
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value))
  append(element, children)
  return element as SVGElement
}

function append (parent: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.append(typeof child === 'string' ? document.createTextNode(child) : child)
  }
}

export function byId<T extends HTMLElement = HTMLElement> (id: string): T {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}

export function replaceChildren (parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

/** `did:key:z6Mk…abcd`: enough to tell keys apart at a glance; the full value is in the title. */
export function shortId (value: string): string {
  return value.length <= 24 ? value : `${value.slice(0, 14)}…${value.slice(-6)}`
}
