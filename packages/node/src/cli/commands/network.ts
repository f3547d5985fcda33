import { InvalidArgumentError, type Command } from 'commander'
import type { InboxItem, PeerInfo, WitnessRequestResult } from '../../operations/index.js'
import { isIsoTimestamp } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'
import { collect } from '../option-parsers.js'

/*
 * The network commands: thin shells over the operations. Without a daemon, a witness
 * request is journaled and stored for local agents only and the inbox is read from the data
 * directory; what needs the network itself (peers) is refused with USAGE "… needs a running network
 * node …" and exit status 2, as every USAGE is (one exit status per code).
 */

function timestamp (value: string): string {
  if (!isIsoTimestamp(value)) throw new InvalidArgumentError('must be a UTC timestamp like 2026-02-05T16:00:00Z')
  return value
}

function renderRequest (result: WitnessRequestResult): string {
  const { record } = result
  const lines = [
    `witness request ${result.id}`,
    `  memory    ${record.memory}`,
    `  requester ${record.requester}`,
    `  to        ${record.witnesses === undefined ? 'anyone (open request)' : record.witnesses.join('\n            ')}`
  ]
  if (record.expires_at !== undefined) lines.push(`  expires   ${record.expires_at}`)
  return lines.join('\n')
}

function renderInboxItem (item: InboxItem): string {
  const memory = item.summary === undefined ? item.memory : `${item.memory}  [${item.type ?? '?'}] ${item.summary}`
  if (item.drawn === true) {
    // Nobody asked: the witness draw chose these agents (protocols/witness-draw-v1.md).
    return [
      `drawn   ${item.created_at}`,
      `  memory ${memory}`,
      `  author ${item.requester}`,
      `  to     ${item.to.join(', ')} (drawn witness)`
    ].join('\n')
  }
  const lines = [
    `request ${item.request ?? ''}  ${item.created_at}${item.expires_at === undefined ? '' : `  (expires ${item.expires_at})`}`,
    `  memory ${memory}`,
    `  from   ${item.requester}`,
    `  to     ${item.to.length === 0 ? 'anyone (open request)' : item.to.join(', ')}`
  ]
  return lines.join('\n')
}

function renderPeer (peer: PeerInfo): string {
  return peer.addresses.length === 0 ? peer.id : `${peer.id}\n${peer.addresses.map((a) => `  ${a}`).join('\n')}`
}

export function registerNetwork (program: Command, context: (cmd: Command) => CommandContext): void {
  const witness = program.command('witness').description('ask other agents to witness a memory')
  runsOperation(witness.command('request')
    .description('sign and store a witness request for a stored memory; a running node (`isnad start`) publishes it, answers arrive as attestations')
    .argument('<memory>', 'the memory id (CID)')
    .option('--to <did>', 'an addressed witness (repeatable; default: an open request anyone may answer)', collect)
    .option('--as <did>', 'request as this key instead of the default')
    .option('--expires <time>', 'when the request lapses (ISO-8601 UTC)', timestamp)
    .option('-q, --quiet', 'print only the request\'s id'), context, {
    operation: 'requestWitnesses',
    args: ['id'],
    rename: { expires: 'expiresAt' },
    local: ['quiet'],
    render: (result, opts) => opts.quiet === true ? result.id : renderRequest(result)
  })

  runsOperation(program.command('inbox')
    .description('witness requests waiting for this node\'s agents (addressed to them, or open) and memories the witness draw chose them for (drawn); answer with `isnad attest`'), context, {
    operation: 'inbox',
    render: ({ items }) => items.length === 0 ? 'inbox empty' : items.map(renderInboxItem).join('\n')
  })

  runsOperation(program.command('peers').description('the peers the running node is connected to'), context, {
    operation: 'peers',
    render: ({ peers }) => peers.length === 0 ? 'no peers connected' : peers.map(renderPeer).join('\n')
  })
}
