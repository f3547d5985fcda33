import type { Command } from 'commander'
import type { CommandContext } from '../command-context.js'
import { runsOperation } from '../operation-command.js'

/*
 * `isnad peers connect|disconnect|sync|stats`: the operator's control over the running node's
 * connections (src/operations/peer-control.ts), through its HTTP API, by the table's operations. Without
 * a running node they fail with USAGE and exit status 2, as `isnad peers` does.
 */

/** Adds the subcommands to `isnad peers` (registered by network.ts). */
export function registerPeerControl (program: Command, context: (cmd: Command) => CommandContext): void {
  const peers = program.commands.find((c) => c.name() === 'peers')
  if (peers === undefined) throw new Error('register the network commands first')

  runsOperation(peers.command('connect <multiaddr>').description('dial a peer by its address, ending in /p2p/<peer id>'), context, {
    operation: 'connectPeer',
    args: ['address'],
    render: ({ peer }) => `connected to ${peer}`
  })

  runsOperation(peers.command('disconnect <peer-id>').description('close every connection to a peer (it may dial again)'), context, {
    operation: 'disconnectPeer',
    args: ['peer'],
    render: ({ peer, closed }) => closed === 0 ? `not connected to ${peer}` : `closed ${closed} connection(s) to ${peer}`
  })

  runsOperation(peers.command('sync [peer-id]').description('catch up with one connected peer, or all of them (sync-v1)'), context, {
    operation: 'syncPeers',
    args: ['peer'],
    render: ({ syncs }) => syncs.length === 0
      ? 'no peers connected'
      : syncs.map((s) => s.error === undefined ? `${s.peer}  ${s.received ?? 0} received, ${s.accepted ?? 0} new` : `${s.peer}  failed: ${s.error}`).join('\n')
  })

  runsOperation(peers.command('stats').description('the network counters since the node started: gossip, verifications, records by path, peers, CPU'), context, {
    operation: 'networkStats',
    render: (stats) => [
      `peers          ${stats.peers}`,
      `gossip         ${stats.gossip.accepted} accepted, ${stats.gossip.ignored} ignored, ${stats.gossip.rejected} rejected`,
      `records        ${stats.accepted.gossip} by gossip, ${stats.accepted.fetch} by fetch, ${stats.accepted.sync} by sync`,
      `verifications  ${stats.verifications}`,
      `violations     ${stats.violations}`,
      `cpu            ${stats.cpu_ms} ms`
    ].join('\n')
  })

  runsOperation(peers.command('health').description('gossip health: connected peers with their gossipsub scores and penalties, and each topic\'s mesh size'), context, {
    operation: 'gossipHealth',
    render: (health) => health.running
      ? [
          ...health.peers.map((p) => `${p.id}  score ${p.score.toFixed(2)}  penalty ${p.penalty.toFixed(2)}`),
          ...health.topics.map((t) => `${t.topic}  mesh ${t.mesh_peers}`)
        ].join('\n') || 'no peers, no topics'
      : 'the network is not running here (`isnad start`)'
  })
}
