import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { eventually } from '../../fixtures/eventually.js'
import { runIsnad } from './run-cli.js'

/*
 * `isnad peers connect|disconnect|sync|stats` as an operator types them: the built CLI, as a child
 * process, against two real daemons on loopback that know nothing of each other until told.
 */

interface Node { home: string, daemon: Daemon }

async function startNode (name: string): Promise<Node> {
  const home = await mkdtemp(join(tmpdir(), `isnad-peer-cli-${name}-`))
  await initHome(home)
  const daemon = await startDaemon({ home, listen: ['/ip4/127.0.0.1/tcp/0'], bootstrap: [], heartbeatMs: 60_000 })
  return { home, daemon }
}

describe('isnad peers connect|disconnect|sync|stats', () => {
  const nodes: Node[] = []
  let offline: string

  beforeAll(async () => {
    ensureBuilt()
    nodes.push(await startNode('a'), await startNode('b'))
    offline = await mkdtemp(join(tmpdir(), 'isnad-peer-cli-offline-'))
    await initHome(offline)
  }, 120_000)

  afterAll(async () => {
    for (const { daemon, home } of nodes) {
      await daemon.stop()
      await rm(home, { recursive: true, force: true })
    }
    await rm(offline, { recursive: true, force: true })
  })

  it('connects to a peer by address, syncs what it holds, counts it, and hangs up', async () => {
    const [a, b] = nodes as [Node, Node]
    const bOps = createHttpOperations({ url: b.daemon.url, token: await readApiToken(nodePaths(b.home).data) })
    const memory = await bOps.call('remember', { type: 'observation', summary: 'held by B only', tags: ['peers-cli'] })

    const connected = await runIsnad(['peers', 'connect', b.daemon.multiaddrs()[0]!, '--json'], { home: a.home })
    expect(connected.code, connected.stderr).toBe(0)
    expect(connected.json()).toEqual({ peer: b.daemon.peerId })

    const synced = await runIsnad(['peers', 'sync', b.daemon.peerId, '--json'], { home: a.home })
    expect(synced.code, synced.stderr).toBe(0)
    const { syncs } = synced.json<{ syncs: Array<{ peer: string, error?: string }> }>()
    expect(syncs.map((s) => s.peer)).toEqual([b.daemon.peerId])
    expect(syncs[0]?.error).toBeUndefined()
    const aOps = createHttpOperations({ url: a.daemon.url, token: await readApiToken(nodePaths(a.home).data) })
    await eventually('the memory at A', async () => await aOps.call('show', { id: memory.id }).catch(() => null), (view) => view?.id === memory.id)

    const stats = await runIsnad(['peers', 'stats', '--json'], { home: a.home })
    expect(stats.code, stats.stderr).toBe(0)
    const counters = stats.json<{ peers: number, accepted: { gossip: number, fetch: number, sync: number } }>()
    expect(counters.peers).toBe(1)
    expect(counters.accepted.gossip + counters.accepted.fetch + counters.accepted.sync).toBeGreaterThanOrEqual(1)

    const text = await runIsnad(['peers', 'stats'], { home: a.home })
    expect(text.stdout).toMatch(/^peers +1$/m)

    const hungUp = await runIsnad(['peers', 'disconnect', b.daemon.peerId, '--json'], { home: a.home })
    expect(hungUp.code, hungUp.stderr).toBe(0)
    expect(hungUp.json<{ closed: number }>().closed).toBeGreaterThanOrEqual(1)
    await eventually('A without peers', async () => (await aOps.call('peers', {})).peers, (list) => list.length === 0)
  })

  it('reports an unreachable peer as PEER_UNREACHABLE and exits 1', async () => {
    const [a, b] = nodes as [Node, Node]
    const result = await runIsnad(['peers', 'connect', `/ip4/127.0.0.1/tcp/1/p2p/${b.daemon.peerId}`, '--json'], { home: a.home })
    expect(result.code).toBe(1)
    expect(result.errorCode()).toBe('PEER_UNREACHABLE')
  })

  it('refuses an address without /p2p/ (SCHEMA_INVALID) and, without a running node, says USAGE', async () => {
    const [a] = nodes as [Node]
    const bad = await runIsnad(['peers', 'connect', '/ip4/127.0.0.1/tcp/4501', '--json'], { home: a.home })
    expect(bad.code).toBe(1)
    expect(bad.errorCode()).toBe('SCHEMA_INVALID')
    const alone = await runIsnad(['peers', 'stats', '--json'], { home: offline })
    // USAGE exits 2 on every command.
    expect(alone.code).toBe(2)
    expect(alone.errorCode()).toBe('USAGE')
  })
})
