import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { mkdtemp, rm } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, initHome, loadOrCreateApiToken, nodePaths, startDaemon } from 'isnad/engine'
import { LocalPool, discoverNode, parseScenario, RemotePool, runOnce, type SimNodeInfo } from '../../src/index.js'
import { NodeSupervisor, orderNode } from '../../src/pools/node-supervisor.js'
import { eventually } from '../../../node/test/fixtures/eventually.js'
import { freePort } from '../../../node/test/fixtures/free-port.js'

/*
 * The docker runner's pool (RemotePool) against real daemons, each under the supervisor the
 * containers run (node-supervisor.ts), reached only through their HTTP APIs and control channels as
 * the driver container reaches them: dial, hang up, leave, join, sync and counters; then a scenario
 * with churn and a partition played through it to the end.
 */

const roots: string[] = []
const supervisors: NodeSupervisor[] = []

/** `count` supervised daemons on 127.0.0.1; fixed libp2p ports, so a node that joins again keeps its address, as in a container. */
async function supervisedNodes (count: number, publish = true): Promise<SimNodeInfo[]> {
  const root = await mkdtemp(join(tmpdir(), 'isnad-remote-pool-'))
  roots.push(root)
  return await Promise.all(Array.from({ length: count }, async (_, i) => {
    const home = join(root, `node-${i}`)
    const agent = (await initHome(home)).defaultKey.did
    const token = await loadOrCreateApiToken(nodePaths(home).data)
    const listen = [`/ip4/127.0.0.1/tcp/${await freePort()}`]
    const supervisor = await NodeSupervisor.start({ start: async () => await startDaemon({ home, listen, apiBehindRelay: true }), token, host: '127.0.0.1', apiPort: 0, controlPort: 0 })
    supervisors.push(supervisor)
    const daemon = supervisor.current!
    const info = { url: supervisor.apiUrl, token, peerId: daemon.peerId, multiaddrs: daemon.multiaddrs(), agent, control: supervisor.controlUrl }
    if (publish) supervisor.publish(info)
    return info
  }))
}

afterAll(async () => {
  await Promise.allSettled(supervisors.map(async (s) => { await s.close() }))
  await Promise.all(roots.map(async (r) => { await rm(r, { recursive: true, force: true }) }))
})

describe('RemotePool (docker runner) over HTTP', () => {
  let infos: SimNodeInfo[]
  let pool: RemotePool
  beforeAll(async () => {
    infos = await supervisedNodes(3)
    pool = new RemotePool(infos)
  })

  it('connects and disconnects nodes through their HTTP APIs', async () => {
    expect(pool.controls).toBe(true)
    await pool.dial(0, infos[1]!.multiaddrs[0]!)
    await pool.dial(1, infos[2]!.multiaddrs[0]!)
    expect(await pool.connectedPeers(0)).toContain(infos[1]!.peerId)
    await pool.hangUp(0, infos[1]!.peerId)
    await eventually('the hang-up', async () => await pool.connectedPeers(0), (peers) => !peers.includes(infos[1]!.peerId))
    await pool.dial(0, infos[1]!.multiaddrs[0]!)
  })

  it('refuses a malformed address and reports an unreachable peer with stable codes', async () => {
    const http = createHttpOperations({ url: infos[0]!.url, token: infos[0]!.token })
    await expect(http.call('connectPeer', { address: 'not-an-address' }).then((r) => r.peer)).rejects.toMatchObject({ code: 'SCHEMA_INVALID' })
    // A peer no node runs: node 2 itself may already be connected to node 0 through the DHT.
    const nobody = peerIdFromPrivateKey(await generateKeyPair('Ed25519')).toString()
    await expect(http.call('connectPeer', { address: `/ip4/127.0.0.1/tcp/${await freePort()}/p2p/${nobody}` }).then((r) => r.peer)).rejects.toMatchObject({ code: 'PEER_UNREACHABLE' })
    await expect(orderNode(infos[0]!.control!, 'x'.repeat(43), 'status')).rejects.toThrow(/token/)
  })

  it('lets a node leave and join again on its home, then catch up by sync, and sums its counters over both runs', async () => {
    await pool.stop(2)
    expect(await orderNode(infos[2]!.control!, infos[2]!.token, 'status')).toEqual({ online: false })
    await expect(createHttpOperations({ url: infos[2]!.url, token: infos[2]!.token }).call('status', {})).rejects.toMatchObject({ code: 'IO_ERROR' })
    // Written while node 2 is away: it can only learn of it by sync-v1.
    const ops0 = createHttpOperations({ url: infos[0]!.url, token: infos[0]!.token })
    const memory = await ops0.call('remember', { type: 'observation', summary: 'written while node 2 was away' })
    const back = await pool.restart(2)
    expect(back.url).toBe(infos[2]!.url)
    await pool.dial(2, infos[1]!.multiaddrs[0]!)
    const ops2 = createHttpOperations({ url: back.url, token: back.token })
    await eventually('node 2 to catch up', async () => {
      await pool.syncAll(2)
      return (await ops2.call('show', { id: memory.id })).id
    }, (id) => id === memory.id)
    const counters = await pool.counters()
    expect(counters).toHaveLength(3)
    expect(counters[2]!.recordsBySync).toBeGreaterThanOrEqual(1)
    expect(counters[2]!.cpuMs).toBeGreaterThan(0)
  })
})

describe('discovery: how containers find each other without a shared directory', () => {
  const portOf = (url: string): number => Number(new URL(url).port)

  it('fetches a node\'s info from its control channel by host name, waiting until the node has published it', async () => {
    const [published] = await supervisedNodes(1)
    expect(await discoverNode('localhost', { token: published!.token, port: portOf(published!.control!) })).toEqual(published)

    const [late] = await supervisedNodes(1, false)
    const lateSupervisor = supervisors[supervisors.length - 1]!
    const waited: string[] = []
    const found = discoverNode('localhost', { token: late!.token, port: portOf(late!.control!), waiting: (_, problem) => { waited.push(problem) } })
    setTimeout(() => { lateSupervisor.publish(late!) }, 700)
    expect(await found).toEqual(late)
    expect(waited).toEqual(['HTTP 404'])
  })

  it('refuses a node that does not know the project\'s token (USAGE) and gives up on one that never answers (PEER_UNREACHABLE)', async () => {
    const [info] = await supervisedNodes(1)
    await expect(discoverNode('localhost', { token: 'x'.repeat(43), port: portOf(info!.control!) })).rejects.toMatchObject({ code: 'USAGE' })
    await expect(discoverNode('localhost', { token: info!.token, port: await freePort(), timeoutMs: 1200 })).rejects.toMatchObject({ code: 'PEER_UNREACHABLE', message: /ECONNREFUSED/ })
  })
})

describe('the docker runner plays churn and partitions', () => {
  it('runs a scenario with nodes leaving, joining, a partition and its heal through RemotePool', async () => {
    const scenario = parseScenario({
      name: 'remote-churn',
      seed: 5,
      durationMinutes: 1,
      timeScale: { realSecondsPerMinute: 10 },
      nodes: { 'honest-author': 2, 'honest-witness': 4 },
      requests: { memoriesPerAuthorPerMinute: 4, witnessesPerMemory: 2, pattern: 'uniform' },
      churn: [{ at: 0.2, leave: 1 }, { at: 0.6, join: 1 }],
      partitions: [{ at: 0.3, split: 0.5, healAt: 0.7 }],
      network: { dialsPerNode: 2 },
      metrics: { observers: 2, trustRoots: 2, sybilSweep: [] }
    })
    const infos = await supervisedNodes(6)
    const progress: string[] = []
    const run = await runOnce(scenario, { runner: 'docker', createPool: async () => new RemotePool(infos), progress: (line) => { progress.push(line) } })
    expect(run.notes.filter((n) => n.includes('skipped'))).toEqual([])
    for (const step of ['nodes leave', 'partition', 'join again', 'heals']) expect(progress.some((line) => line.includes(step)), step).toBe(true)
    // An author away when its memory was due publishes nothing: as in the other runners.
    expect(run.metrics.memories.published).toBeGreaterThan(0)
    expect(run.metrics.delivery.memoryRatio).toBe(1)
    expect(run.metrics.perNode?.messagesMean).toBeGreaterThan(0)
  }, 120_000)
})

describe('the in-process runner shapes the links between its nodes', () => {
  it('adds the scenario latency to each direction: a sync round trip takes at least 2 × latency', async () => {
    const pool = await LocalPool.start({ count: 2, linkConditions: { latencyMs: 150, jitterMs: 0, lossPercent: 0, seed: 1 } })
    try {
      await pool.dial(0, pool.info(1).multiaddrs[0]!)
      await pool.syncAll(0) // joins the sync started on connect
      const started = performance.now()
      await pool.syncAll(0)
      expect(performance.now() - started).toBeGreaterThanOrEqual(300)
    } finally {
      await pool.close()
    }
  })
})
