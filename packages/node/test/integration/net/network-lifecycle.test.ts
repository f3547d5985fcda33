import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALL_TOPICS, FETCH_PROTOCOL, SYNC_PROTOCOL } from '../../../src/net/index.js'
import { addressOf, startNode, stopAll, waitFor, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/* The network node's life: persistent peer key, listeners, bootstrap discovery, mDNS flag, graceful stop. */

describe('network lifecycle', () => {
  let dir: string
  const nodes: Array<TestNode<MemoryHost>> = []
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-net-life-')) })
  afterAll(async () => {
    await stopAll(nodes)
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps its peer id across restarts with a key file under keys/ (mode 0600)', async () => {
    const peerKeyPath = join(dir, 'keys', 'peer.key')
    const first = await startNode('K1', new MemoryHost(), { peerKeyPath })
    const id = first.network.peerId.toString()
    expect(first.network.multiaddrs().map(String).some((a) => a.includes('/tcp/') && !a.includes('/ws'))).toBe(true)
    expect(first.network.multiaddrs().map(String).some((a) => a.includes('/ws'))).toBe(true)
    expect(first.network.libp2p.getProtocols()).toEqual(expect.arrayContaining([FETCH_PROTOCOL, SYNC_PROTOCOL]))
    // Before it is told its shards a node knows of no network: count 1's topics and the key logs', no count 2's (gossip-v1 §11.4).
    expect(first.network.topics().sort()).toEqual([...ALL_TOPICS].sort())
    await first.network.stop()
    expect((await stat(peerKeyPath)).mode & 0o777).toBe(0o600)
    const second = await startNode('K2', new MemoryHost(), { peerKeyPath })
    nodes.push(second)
    expect(second.network.peerId.toString()).toBe(id)
  })

  it('dials its bootstrap peers on start, with mDNS enabled alongside', async () => {
    const seed = await startNode('seed', new MemoryHost())
    nodes.push(seed)
    const joiner = await startNode('joiner', new MemoryHost(), { bootstrap: [addressOf(seed, 'tcp').toString()], mdns: true })
    nodes.push(joiner)
    await waitFor('the joiner connects to its bootstrap peer', () => joiner.network.libp2p.getConnections(seed.network.peerId).length > 0)
  })
})
