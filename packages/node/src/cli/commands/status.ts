import { join } from 'node:path'
import type { Command } from 'commander'
import type { NodeStatus } from '../../operations/index.js'
import { PEER_KEY_FILE, nodeKeysPath, nodePaths } from '../../home/index.js'
import type { CommandContext } from '../command-context.js'
import { emit } from '../output.js'

/**
 * `isnad status --json` (compare `ipfs id`): the daemon's state and, while it runs, what it is on
 * the network; without it, the home's identity all the same (the peer key under keys/ and the API
 * port kept for the next start). `records` is null when the daemon does not answer: it holds the
 * store, so nothing else may open it.
 */
export interface StatusReport {
  /** True when a daemon serves this home and answers on its API. */
  running: boolean
  /** `unresponsive`: `.memory/daemon.json` names a live process whose API does not answer. */
  state: 'running' | 'stopped' | 'unresponsive'
  pid: number | null
  started_at: string | null
  /** The libp2p peer id: the running daemon's, else the one its peer key gives; null before the first start. */
  peer_id: string | null
  /** Listen multiaddrs of the running daemon ([] when it does not run). */
  addrs: string[]
  /** Peers connected now; null when no daemon runs. */
  peers: number | null
  api: string | null
  /** The dashboard's address, without its token (`isnad dashboard` prints it with it). */
  dashboard: string | null
  /** The API port this home keeps (.memory/api.port); null before the first start. */
  api_port: number | null
  home: string
  agents: NodeStatus['agents']
  records: NodeStatus['records'] | null
}

export function registerStatus (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('status')
    .description('whether a daemon runs, its peer id, addresses, peers, API and dashboard URLs; the home\'s agents and records')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const report = await statusOf(ctx)
      emit(ctx.out, report, () => describe(report))
    })
}

async function statusOf (ctx: CommandContext): Promise<StatusReport> {
  const paths = nodePaths(ctx.home)
  // Loaded here, not at CLI start-up: only this command reads them (startup-imports.test.ts).
  const [{ findDaemon, readKeptApiPort }, { readPeerKey }, { peerIdFromPrivateKey }] = await Promise.all([
    import('../../api-access/index.js'), import('../../net/peer-key.js'), import('@libp2p/peer-id')
  ])
  const apiPort = (await readKeptApiPort(paths.data).catch(() => undefined)) ?? null
  const info = await findDaemon(paths.data)
  if (info !== null) {
    const ops = await ctx.daemon()
    const status = ops === null ? null : await ops.call('status', {}).catch((err: unknown) => { if (isUnreachable(err)) return null; throw err })
    if (status !== null) {
      return {
        running: true,
        state: 'running',
        pid: info.pid,
        started_at: info.started_at,
        peer_id: status.network?.peer_id ?? info.peer_id ?? null,
        addrs: status.network?.addrs ?? info.addrs ?? [],
        peers: status.network?.peers ?? null,
        api: info.url,
        dashboard: `${info.url}/dashboard/`,
        api_port: apiPort,
        home: status.home,
        agents: status.agents,
        records: status.records
      }
    }
  }
  const key = await readPeerKey(join(nodeKeysPath(paths), PEER_KEY_FILE))
  const base = {
    pid: info?.pid ?? null,
    started_at: info?.started_at ?? null,
    peer_id: key === undefined ? null : peerIdFromPrivateKey(key).toString(),
    addrs: [],
    peers: null,
    api: null,
    dashboard: null,
    api_port: apiPort
  }
  if (info !== null) {
    // The daemon's process lives but does not answer: the store is its, so only keys/ can be read.
    const agents = (await ctx.keystore().list()).map((k) => ({ did: k.did, ...(k.label === undefined ? {} : { label: k.label }), default: k.default }))
    return { running: false, state: 'unresponsive', ...base, home: ctx.home, agents, records: null }
  }
  const status = await ctx.call('status', {})
  return { running: false, state: 'stopped', ...base, home: status.home, agents: status.agents, records: status.records }
}

/** A daemon that does not answer (refused, timed out) rather than one that answered with an error. */
function isUnreachable (err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'IO_ERROR'
}

function describe (r: StatusReport): string {
  const pad = (label: string): string => `${label}:`.padEnd(11)
  const list = (items: string[]): string => items.length === 0 ? 'none' : items.join(`\n${' '.repeat(11)}`)
  const counts = r.records
  const lines = [
    pad('daemon') + (r.state === 'running'
      ? `running (pid ${r.pid ?? '?'}, since ${r.started_at ?? '?'})`
      : r.state === 'unresponsive'
        ? `not answering: pid ${r.pid ?? '?'} holds this home but its API does not answer`
        : 'not running (start it with `isnad start`)'),
    pad('peer id') + (r.peer_id ?? 'none yet (the first `isnad start` creates the peer key)'),
    ...(r.running
      ? [
          pad('addresses') + list(r.addrs),
          pad('peers') + String(r.peers ?? 0),
          pad('api') + (r.api ?? '-'),
          pad('dashboard') + `${r.dashboard ?? '-'}  (\`isnad dashboard\` prints it with its token)`
        ]
      : [pad('api port') + (r.api_port === null ? 'none kept yet (chosen on the first start)' : `${r.api_port} (kept for the next start)`)]),
    pad('home') + r.home,
    pad('agents') + list(r.agents.map((k) => `${k.did}${k.default ? ' (default)' : ''}`)),
    pad('records') + (counts === null
      ? 'unknown (the daemon holds the store)'
      : `${counts.memory} memories, ${counts.attestation} attestations, ${counts.anchor} anchors, ${counts.witness_request} witness requests`)
  ]
  return lines.join('\n')
}
