/*
 * The page builds its DOM with text nodes only (never innerHTML): memory text is other agents'
 * content and must never become markup or script.
 */

import { nameAgent, shortId, type LocalAgent } from './agents.js'
import { splitBidiControls } from './text.js'

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

export { shortId } from './agents.js'

/**
 * Text from a record or another agent, isolated (`<bdi>`) so its direction cannot reorder the page
 * around it, with every direction control shown as a visible token instead of acting (text.ts).
 */
export function safeText (value: string, attrs: Record<string, string> = {}): HTMLElement {
  return h('bdi', attrs, ...splitBidiControls(value).map((part) => 'text' in part
    ? part.text
    : h('span', { class: 'bidi-control', 'data-testid': 'bidi-control', title: `${part.token.slice(1, -1)} ${part.name}: shown, not applied` }, part.token)))
}

/** An agent by name (a local key's label, else its short DID), the full DID in the tooltip. */
export function agentTag (did: string, agents: readonly LocalAgent[]): HTMLElement {
  const agent = nameAgent(did, agents)
  return h('span', { class: `agent${agent.local ? ' local' : ''}`, title: agent.local ? `${did} (a key of this node)` : did, 'data-did': did },
    safeText(agent.name, { class: agent.local && agent.name !== shortId(did) ? 'label' : 'mono' }),
    agent.local ? h('span', { class: 'badge' }, 'this node') : null)
}
