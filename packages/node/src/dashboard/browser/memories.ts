import type { QueryResultItem } from '../../node/index.js'
import { CONTENT_TYPES, type Bundle, type MemoryView, type TrustResult } from '../../schema/index.js'
import { explanationLines, formatTrustScore, type ExplanationLineKind } from '../../trust/index.js'
import type { LocalAgent } from './agents.js'
import type { Api } from './api.js'
import { buildChain } from './chain.js'
import { agentTag, byId, h, replaceChildren, safeText } from './dom.js'
import { drawChain } from './graph.js'

/*
 * Memories with search and filters, and one memory in detail: its content (as its author's claim),
 * its isnad chain verified in this browser, and the node's trust explanation. The filters go to the
 * node's query (tag, type, minimum trust, author); the search box narrows the loaded page by text.
 * Every text from a record goes through safeText: isolated, its direction controls shown inert.
 */

const PAGE = 200

export interface MemoriesPanel {
  load: () => Promise<void>
  open: (id: string) => Promise<void>
  /** Empties the list and the detail (the daemon went away: what they showed may be stale). */
  clear: () => void
}

export function createMemoriesPanel (api: Api, report: (err: unknown) => void, agents: () => readonly LocalAgent[]): MemoriesPanel {
  const list = byId('memory-list')
  const detail = byId('memory-detail')
  const search = byId<HTMLInputElement>('search')
  const tag = byId<HTMLInputElement>('filter-tag')
  const type = byId<HTMLSelectElement>('filter-type')
  const minTrust = byId<HTMLInputElement>('filter-min-trust')
  const author = byId<HTMLInputElement>('filter-author')
  for (const t of CONTENT_TYPES) type.append(h('option', { value: t }, t))
  let items: QueryResultItem[] = []

  const filtersSet = (): boolean => [tag.value, type.value, minTrust.value, author.value].some((v) => v.trim() !== '')

  const render = (): void => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter((w) => w !== '')
    const shown = items.filter((m) => {
      const text = `${m.summary} ${m.tags.join(' ')} ${m.type} ${m.id} ${m.author}`.toLowerCase()
      return words.every((w) => text.includes(w))
    })
    if (items.length === 0 && !filtersSet()) {
      replaceChildren(list, h('p', { class: 'empty', 'data-testid': 'empty-memories' },
        'No memories yet. Record one with `isnad remember "…"` (or the MCP tool remember); memories from peers appear here as they arrive.'))
      return
    }
    if (shown.length === 0) {
      replaceChildren(list, h('p', { class: 'empty', 'data-testid': 'no-match' }, 'No memories match this search and these filters. Clear them to see every memory.'))
      return
    }
    replaceChildren(list, ...shown.map((m) => {
      const item = h('button', { class: 'memory-item', 'data-testid': 'memory-item', 'data-id': m.id, type: 'button' },
        h('span', { class: `level level-${m.level}` }, `${m.level} ${formatTrustScore(m.trust)}`),
        h('span', { class: 'type' }, m.type),
        safeText(m.summary, { class: 'summary', 'data-testid': 'memory-summary' }),
        safeText(m.tags.map((t) => `#${t}`).join(' '), { class: 'tags' }),
        h('span', { class: 'author' }, agentTag(m.author, agents())))
      item.addEventListener('click', () => { void open(m.id) })
      return item
    }))
  }

  const load = async (): Promise<void> => {
    const query = new URLSearchParams({ limit: String(PAGE) })
    if (tag.value.trim() !== '') query.set('tag', tag.value.trim())
    if (type.value !== '') query.set('type', type.value)
    if (minTrust.value.trim() !== '') query.set('minTrust', minTrust.value.trim())
    if (author.value.trim() !== '') query.set('author', author.value.trim())
    try {
      items = (await api.get<{ items: QueryResultItem[] }>('/v1/memories', query)).items
      render()
    } catch (err) {
      report(err)
    }
  }

  const open = async (id: string): Promise<void> => {
    const path = `/v1/memories/${encodeURIComponent(id)}`
    try {
      const [view, bundle, trust] = await Promise.all([
        api.get<MemoryView>(path),
        api.post<Bundle>('/v1/export', { ids: [id] }),
        api.get<TrustResult>(`${path}/trust`)
      ])
      renderDetail(detail, view, bundle, trust, agents())
    } catch (err) {
      report(err)
    }
  }

  search.addEventListener('input', render)
  for (const input of [tag, minTrust, author]) input.addEventListener('change', () => { void load() })
  type.addEventListener('change', () => { void load() })
  byId('clear-filters').addEventListener('click', () => {
    for (const input of [search, tag, minTrust, author]) input.value = ''
    type.value = ''
    void load()
  })
  const clear = (): void => {
    items = []
    list.replaceChildren()
    detail.replaceChildren()
    detail.hidden = true
  }
  return { load, open, clear }
}

function renderDetail (detail: HTMLElement, view: MemoryView, bundle: Bundle, trust: TrustResult, agents: readonly LocalAgent[]): void {
  const chain = buildChain(view, bundle.records)
  const allValid = chain.verified === chain.total
  replaceChildren(detail,
    h('h2', { 'data-testid': 'detail-summary' }, safeText(view.content.summary)),
    h('p', { class: 'claim-note' }, 'A claim by its author, shown as evidence with its trust, not as an instruction.'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'id'), h('dd', { class: 'mono' }, view.id),
      h('dt', {}, 'author'), h('dd', {}, agentTag(view.provenance.author.agent_id, agents)),
      h('dt', {}, 'created'), h('dd', {}, view.provenance.created_at),
      h('dt', {}, 'type'), h('dd', {}, view.content.type),
      h('dt', {}, 'tags'), h('dd', {}, safeText(view.content.tags.map((t) => `#${t}`).join(' ') || '—'))),
    h('pre', { class: 'body', 'data-testid': 'detail-body' }, safeText(view.content.body)),
    h('p', { class: `verification ${allValid ? 'ok' : 'bad'}`, 'data-testid': 'chain-verification' },
      allValid
        ? `✓ ${chain.verified} of ${chain.total} records verified in this browser (Ed25519 over the recomputed canonical bytes)`
        : `✗ only ${chain.verified} of ${chain.total} records verified in this browser: do not rely on the others`),
    h('h3', {}, 'isnad chain'),
    drawChain(chain, agents),
    h('h3', {}, 'trust'),
    renderTrust(trust))
  detail.hidden = false
}

/**
 * The node's trust explanation, in the same words as `trust explain` (src/trust explanationLines):
 * the headline, then a paragraph per statement, the contributions as a table, refusals as a list.
 */
function renderTrust (trust: TrustResult): HTMLElement {
  const lines = explanationLines(trust)
  const of = (...kinds: ExplanationLineKind[]): string[] => lines.filter((l) => kinds.includes(l.kind)).map((l) => l.text)
  const rows = trust.contributions.map((c) => h('tr', {}, h('td', { class: 'points' }, `${c.points >= 0 ? '+' : ''}${c.points.toFixed(2)}`), h('td', {}, safeText(c.reason))))
  const accepted = of('accepted-attestation', 'accepted-anchor')
  const refused = of('refused-attestation', 'refused-anchor')
  return h('div', { class: 'trust', 'data-testid': 'trust-explanation' },
    h('p', {}, h('strong', {}, `${formatTrustScore(trust.score)} ${trust.level}`), ` · policy ${trust.policy} · computed by this node at ${trust.computed_at}`),
    // Too little to judge is said plainly, never shown as a confident level.
    ...of('insufficient').map((text) => h('p', { class: 'insufficient', 'data-testid': 'trust-insufficient' }, safeText(text))),
    ...of('level').map((text) => h('p', { class: 'level-basis' }, safeText(text))),
    ...of('witnesses', 'clamped').map((text) => h('p', {}, safeText(text))),
    // Whose evidence this node lacks or fetched: a score on a thinner graph is never silent.
    ...of('evidence').map((text) => h('p', { class: 'evidence', 'data-testid': 'trust-evidence' }, safeText(text))),
    h('table', {}, h('tbody', {}, ...rows)),
    accepted.length === 0 ? null : h('div', {}, h('h4', {}, 'accepted'), h('ul', {}, ...accepted.map((r) => h('li', {}, safeText(r))))),
    refused.length === 0 ? null : h('div', {}, h('h4', {}, 'refused'), h('ul', {}, ...refused.map((r) => h('li', {}, safeText(r))))))
}
