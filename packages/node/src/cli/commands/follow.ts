import type { Command } from 'commander'
import type { Follows } from '../../operations/index.js'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'

/**
 * `isnad follow add|remove|list`: the authors and tags the node follows besides its own agents
 * (protocols/gossip-v1.md "Shards"). `isnad follow add did:key:z…`, `isnad follow add --tag rust`.
 */
export function registerFollow (program: Command, context: (cmd: Command) => CommandContext): void {
  runsOperation(program.command('follow')
    .description('follow an author (its shard comes to this node by gossip) or a tag; list or remove follows')
    .argument('<action>', 'add, remove or list')
    .argument('[did]', 'the author (did:key) to add or remove')
    .option('--tag <tag>', 'a tag to add or remove instead of an author'), context, {
    operation: 'follow',
    args: ['action', 'did'],
    render: renderFollows
  })
}

export function renderFollows (result: Follows): string {
  const lines = result.follows.length === 0
    ? ['following nothing besides this node\'s own agents']
    : result.follows.map((f) => 'did' in f ? `author ${f.did}  since ${f.since}` : `tag    ${f.tag}  since ${f.since}`)
  const { gossip } = result
  if (gossip !== undefined) {
    lines.push(`gossip: shard count ${gossip.count}, home shards ${gossip.shards.join(', ') || 'none'}`)
    for (const did of gossip.by_sync) lines.push(`  ${did} is beyond max-shards: its records come by sync, not gossip`)
  }
  return lines.join('\n')
}
