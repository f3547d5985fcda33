import type { NodeStatus } from '../../operations/index.js'
import { compactAgents, type LocalAgent } from './agents.js'
import { adviceFor, createApi, DashboardFailure, takeToken, type Api } from './api.js'
import { byId, h, replaceChildren, safeText } from './dom.js'
import { createInboxPanel } from './inbox.js'
import { createMemoriesPanel } from './memories.js'
import { createNetworkPanel } from './network.js'
import { createFollowsPanel } from './follows-panel.js'
import { escapeBidiControls } from './text.js'

/*
 * The dashboard page: boots with the token from the URL fragment, then loads the
 * node's status, memories, inbox and network. Any failure shows in one banner with what is wrong
 * and what to do.
 *
 * The status and the network panel are read again every REFRESH_MS: peers connect and leave on
 * their own (a bootstrap peer typically connects a second or two after the daemon starts), and a
 * stopped daemon must not leave its last "Healthy: 1 peer(s)" on screen. When the daemon stops
 * answering, every panel is emptied and hidden behind the banner; when it answers again, the page
 * reloads everything. The memories and the inbox reload on `refresh` only, so a refresh never
 * wipes a form being filled in.
 */

/** @default 3000 — milliseconds between two reads of the node's status and network health. */
export const REFRESH_MS = 3000

const banner = byId('banner')
const panels = byId('panels')
const status = byId('status')
let agents: LocalAgent[] = []

function report (err: unknown): void {
  const failure = err instanceof DashboardFailure ? err : new DashboardFailure('api', err instanceof Error ? err.message : String(err))
  const { title, advice } = adviceFor(failure)
  replaceChildren(banner, h('strong', {}, title), ' ', advice)
  banner.dataset.kind = failure.kind
  banner.hidden = false
  // Without a token or a daemon, the panels have nothing true to show.
  if (failure.kind !== 'api') offline()
}

let clearPanels = (): void => {}

function offline (): void {
  panels.hidden = true
  clearPanels()
  status.dataset.state = 'offline'
  status.title = ''
  replaceChildren(status, 'not connected to the node')
}

/** The header: the memory count and this node's agents, labels first, a few at most (agents.ts). */
function renderStatus (node: NodeStatus): void {
  agents = node.agents
  const count = node.records.memory ?? 0
  const { shown, hidden } = compactAgents(node.agents)
  status.dataset.state = 'online'
  status.title = escapeBidiControls([`home ${node.home}`, ...node.agents.map((a) => `${a.label ?? '(no label)'}: ${a.did}${a.default ? ' (default)' : ''}`)].join('\n'))
  replaceChildren(status, `${count} memor${count === 1 ? 'y' : 'ies'} · `,
    h('span', { class: 'agents', 'data-testid': 'header-agents' },
      `${node.agents.length} agent${node.agents.length === 1 ? '' : 's'}: `,
      ...shown.flatMap((a, i) => [i === 0 ? '' : ', ', safeText(a.name, { class: a.name.startsWith('did:') ? 'mono' : 'label' })]),
      hidden === 0 ? null : ` +${hidden} more`),
    // Last, so a long path is what the ellipsis cuts; the whole of it is in the tooltip.
    h('span', { class: 'home' }, ` · home ${escapeBidiControls(node.home)}`))
}

async function start (): Promise<void> {
  const api: Api = createApi(takeToken())
  try {
    renderStatus(await api.get<NodeStatus>('/v1/status'))
  } catch (err) {
    report(err)
    // A daemon not started yet: try again until it answers.
    if (err instanceof DashboardFailure && err.kind === 'unreachable') setTimeout(() => { void start() }, REFRESH_MS)
    return
  }
  banner.hidden = true
  const memories = createMemoriesPanel(api, report, () => agents)
  const inbox = createInboxPanel(api, { report, attested: (memory) => { void memories.load(); void memories.open(memory) } })
  const network = createNetworkPanel(api, report)
  const follows = createFollowsPanel(api, report)
  clearPanels = () => { memories.clear(); inbox.clear(); network.clear(); follows.clear() }
  const loadAll = async (): Promise<void> => { await Promise.all([memories.load(), inbox.load(), network.load(), follows.load()]) }
  byId('refresh').addEventListener('click', () => {
    banner.hidden = true
    void refresh(api, loadAll)
  })
  panels.hidden = false
  await loadAll()
  // Status first: while the daemon is away only it is asked, and its return reloads every panel.
  schedule(async () => { await refresh(api, loadAll, network.load) })
}

/** Reads the status; back from offline, reloads every panel, else only `each` (the network). */
async function refresh (api: Api, loadAll: () => Promise<void>, each: () => Promise<void> = loadAll): Promise<void> {
  const wasOffline = status.dataset.state !== 'online'
  try {
    renderStatus(await api.get<NodeStatus>('/v1/status'))
  } catch (err) {
    report(err)
    return
  }
  if (wasOffline) {
    banner.hidden = true
    panels.hidden = false
    await loadAll()
  } else {
    await each()
  }
}

/**
 * Runs `tick` every REFRESH_MS, one at a time (a slow daemon does not pile requests up), until the
 * token is refused: then only a new URL helps.
 */
function schedule (tick: () => Promise<void>): void {
  let running = false
  const timer = setInterval(() => {
    if (banner.dataset.kind === 'unauthorized' || banner.dataset.kind === 'no-token') {
      clearInterval(timer)
      return
    }
    if (running) return
    running = true
    tick().finally(() => { running = false })
  }, REFRESH_MS)
}

void start()
