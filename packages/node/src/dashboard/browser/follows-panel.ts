import type { Follows } from '../../operations/index.js'
import type { Api } from './api.js'
import { byId, h, replaceChildren } from './dom.js'

export interface FollowsPanel {
  load: () => Promise<void>
  clear: () => void
}

/**
 * What the node follows besides its own agents (`isnad follow`), and how its gossip serves them:
 * the shard count, its home shards, the followed authors beyond max-shards that only sync brings.
 * Pure: the lines the panel shows.
 */
export function describeFollows (result: Follows): { follows: string[], gossip: string | undefined } {
  const follows = result.follows.map((f) => 'did' in f ? `author ${f.did}` : `tag ${f.tag}`)
  const { gossip } = result
  if (gossip === undefined) return { follows, gossip: undefined }
  const bySync = gossip.by_sync.length === 0 ? '' : `; ${gossip.by_sync.length} followed author(s) beyond max-shards come by sync only`
  return { follows, gossip: `shard count ${gossip.count}, home shards ${gossip.shards.join(', ')}${bySync}` }
}

export function createFollowsPanel (api: Api, report: (err: unknown) => void): FollowsPanel {
  const panel = byId('follows-body')
  const load = async (): Promise<void> => {
    try {
      const { follows, gossip } = describeFollows(await api.post<Follows>('/v1/follows', { action: 'list' }))
      replaceChildren(panel,
        follows.length === 0
          ? h('p', { class: 'empty', 'data-testid': 'no-follows' }, 'Following only this node\'s own agents (`isnad follow add <did>` or `--tag <tag>`).')
          : h('ul', { class: 'follows', 'data-testid': 'follows' }, ...follows.map((line) => h('li', { class: 'mono' }, line))),
        gossip === undefined ? null : h('p', { class: 'small', 'data-testid': 'follow-shards' }, gossip))
    } catch (err) {
      report(err)
    }
  }
  return { load, clear: () => { panel.replaceChildren() } }
}
