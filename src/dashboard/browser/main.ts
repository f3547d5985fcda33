import type { NodeStatus } from '../../api/schemas/responses.js'
import { adviceFor, createApi, DashboardFailure, takeToken } from './api.js'
import { byId, h, replaceChildren, shortId } from './dom.js'
import { createInboxPanel } from './inbox.js'
import { createMemoriesPanel } from './memories.js'
import { createNetworkPanel } from './network.js'

/*
 * The dashboard page (issue 8 §3): boots with the token from the URL fragment, then loads the
 * node's status, memories, inbox and network. Any failure shows in one banner with what is wrong
 * and what to do.
 */

const banner = byId('banner')

function report (err: unknown): void {
  const failure = err instanceof DashboardFailure ? err : new DashboardFailure('api', err instanceof Error ? err.message : String(err))
  const { title, advice } = adviceFor(failure)
  replaceChildren(banner, h('strong', {}, title), ' ', advice)
  banner.dataset.kind = failure.kind
  banner.hidden = false
  // Without a token or a daemon, the panels have nothing to show.
  if (failure.kind !== 'api') byId('panels').hidden = true
}

async function start (): Promise<void> {
  const api = createApi(takeToken())
  try {
    const status = await api.get<NodeStatus>('/v1/status')
    const count = status.records.memory ?? 0
    replaceChildren(byId('status'), `${count} memor${count === 1 ? 'y' : 'ies'} · ${status.agents.length} agent(s): `,
      ...status.agents.map((a) => h('span', { class: 'mono', title: a.did }, `${a.label ?? ''} ${shortId(a.did)}${a.default ? ' (default)' : ''} `)),
      h('span', { class: 'home' }, `· home ${status.home}`))
  } catch (err) {
    report(err)
    return
  }
  const memories = createMemoriesPanel(api, report)
  const inbox = createInboxPanel(api, {
    report,
    attested: (memory) => { void memories.load(); void memories.open(memory) }
  })
  const network = createNetworkPanel(api, report)
  byId('refresh').addEventListener('click', () => {
    banner.hidden = true
    void Promise.all([memories.load(), inbox.load(), network.load()])
  })
  byId('panels').hidden = false
  await Promise.all([memories.load(), inbox.load(), network.load()])
}

void start()
