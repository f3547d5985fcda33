import type { GossipHealth } from '../../net/index.js'
import type { Api } from './api.js'
import { byId, h, replaceChildren, shortId } from './dom.js'

export interface NetworkPanel {
  load: () => Promise<void>
  /** Empties the panel: with the daemon gone, its last peers and mesh are no longer true. */
  clear: () => void
}

/**
 * Peers and gossip health: who is connected, their scores, and whether every topic has a mesh.
 * The page reloads it every few seconds (main.ts): peers come and go without the page doing anything.
 */
export function createNetworkPanel (api: Api, report: (err: unknown) => void): NetworkPanel {
  const panel = byId('network-body')
  const load = async (): Promise<void> => {
    try {
      render(await api.get<GossipHealth>('/v1/network/health'))
    } catch (err) {
      report(err)
    }
  }
  const render = (health: GossipHealth): void => {
    const warnings: string[] = []
    if (!health.running) warnings.push('This node runs without the network.')
    else if (health.peers.length === 0) warnings.push('No peers connected: restart with `isnad start --bootstrap <multiaddr>` or `--mdns` to find some.')
    const punished = health.peers.filter((p) => p.score < 0)
    if (punished.length > 0) warnings.push(`${punished.length} peer(s) with a negative gossip score (they sent invalid messages).`)
    const empty = health.topics.filter((t) => t.mesh_peers === 0)
    if (health.peers.length > 0 && empty.length > 0) warnings.push(`No mesh yet on ${empty.map((t) => t.topic).join(', ')}: gossip on these topics reaches no one.`)
    replaceChildren(panel,
      h('p', { class: warnings.length === 0 ? 'ok' : 'warn', 'data-testid': 'gossip-health' },
        warnings.length === 0 ? `Healthy: ${health.peers.length} peer(s), a mesh on every topic.` : warnings.join(' ')),
      health.peers.length === 0
        ? h('p', { class: 'empty', 'data-testid': 'no-peers' }, 'No peers connected.')
        : h('table', { class: 'peers' },
          h('thead', {}, h('tr', {}, h('th', {}, 'peer'), h('th', {}, 'address'), h('th', {}, 'score'), h('th', {}, 'penalty'))),
          h('tbody', {}, ...health.peers.map((p) => h('tr', { 'data-testid': 'peer' },
            h('td', { class: 'mono', title: p.id }, shortId(p.id)), h('td', { class: 'mono' }, p.addresses.join(' ')),
            h('td', {}, p.score.toFixed(2)), h('td', {}, p.penalty.toFixed(2)))))),
      h('ul', { class: 'topics' }, ...health.topics.map((t) => h('li', {}, `${t.topic}: ${t.mesh_peers} mesh peer(s)`))))
  }
  return { load, clear: () => { panel.replaceChildren() } }
}
