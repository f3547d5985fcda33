/*
 * How the page names an agent: a key of this node by its label (the operator chose it), any other
 * agent by its shortened did:key, with the full DID always at hand in a tooltip. Pure: no DOM.
 */

/** One of this node's agents, as /v1/status lists them. */
export interface LocalAgent { did: string, label?: string, default: boolean }

export interface AgentName {
  did: string
  /** The label of a local key, else the shortened DID. */
  name: string
  /** One of this node's own keys. */
  local: boolean
}

/** `did:key:z6Mk…abcd`: enough to tell keys apart at a glance; the full value is in the title. */
export function shortId (value: string): string {
  return value.length <= 24 ? value : `${value.slice(0, 14)}…${value.slice(-6)}`
}

export function nameAgent (did: string, agents: readonly LocalAgent[]): AgentName {
  const local = agents.find((a) => a.did === did)
  const label = local?.label?.trim()
  return { did, name: label === undefined || label === '' ? shortId(did) : label, local: local !== undefined }
}

/**
 * The agents the header names, labels first (the default key first among them), then unlabelled
 * keys, at most `max`; `hidden` counts the rest, which the header sums up in a tooltip.
 */
export function compactAgents (agents: readonly LocalAgent[], max = 3): { shown: AgentName[], hidden: number } {
  const rank = (a: LocalAgent): number => (a.label === undefined || a.label.trim() === '' ? 2 : 0) + (a.default ? 0 : 1)
  const ordered = agents.map((a, i) => ({ a, i })).sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i).map(({ a }) => a)
  return { shown: ordered.slice(0, max).map((a) => nameAgent(a.did, agents)), hidden: Math.max(0, ordered.length - max) }
}
