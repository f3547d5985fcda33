import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { parseBootstrapAddresses, watchBootstrapPeers } from '../../../src/daemon/bootstrap-peers.js'
import { createLogger } from '../../../src/log/index.js'
import { MemoryHost } from '../net/fixtures/memory-host.js'
import { startNode, stopAll, waitFor, type TestNode } from '../net/fixtures/harness.js'
import { freePort } from '../../fixtures/free-port.js'

describe('bootstrap peers, watched (src/daemon/bootstrap-peers.ts)', () => {
  it('refuses an address without /p2p/<peer id>, or no multiaddr at all, with USAGE', () => {
    expect(() => parseBootstrapAddresses(['/ip4/127.0.0.1/tcp/4501'])).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('/p2p/<peer id>') }))
    expect(() => parseBootstrapAddresses(['not an address'])).toThrow(expect.objectContaining({ code: 'USAGE' }))
    const peer = '12D3KooWMWVPf5mN36L9wcZ98CZwKqZr3tsWNHQBeigtRRNJrE4a'
    expect(parseBootstrapAddresses([`/ip4/127.0.0.1/tcp/4501/p2p/${peer}`])).toEqual([{ address: `/ip4/127.0.0.1/tcp/4501/p2p/${peer}`, peer }])
  })

  it('warns once about a peer that is down, retries with a doubling wait, connects when it comes up, and dials it again when it leaves', async () => {
    const nodes: Array<TestNode<MemoryHost>> = []
    const lines: Array<Record<string, unknown>> = []
    const logger = createLogger({ level: 'debug', write: (line) => { lines.push(JSON.parse(line) as Record<string, unknown>) } })
    const key = await generateKeyPair('Ed25519')
    const peer = peerIdFromPrivateKey(key).toString()
    const port = await freePort()
    const address = `/ip4/127.0.0.1/tcp/${port}/p2p/${peer}`
    const a = await startNode('a', new MemoryHost(), { listen: ['/ip4/127.0.0.1/tcp/0'] })
    nodes.push(a)
    const stop = watchBootstrapPeers({ network: a.network, targets: parseBootstrapAddresses([address]), logger, retryMs: 100, retryMaxMs: 400 })
    try {
      await waitFor('three failed dials', () => lines.filter((l) => l.code === 'PEER_UNREACHABLE').length >= 3)
      const failures = lines.filter((l) => l.code === 'PEER_UNREACHABLE')
      expect(failures.map((l) => l.level)).toEqual(['warn', ...failures.slice(1).map(() => 'debug')])
      expect(failures.slice(0, 3).map((l) => l.retry_in_s)).toEqual([0.1, 0.2, 0.4])
      expect(failures[0]).toMatchObject({ peer, addr: address, attempt: 1, msg: 'bootstrap peer unreachable; the node keeps running and retries' })

      // The peer comes up at that address: the next retry reaches it.
      const b = await startNode('b', new MemoryHost(), { peerKey: key, listen: [`/ip4/127.0.0.1/tcp/${port}`] })
      nodes.push(b)
      await waitFor('the connection', () => lines.some((l) => l.msg === 'bootstrap peer connected'), { timeoutMs: 20_000 })
      expect(a.network.libp2p.getConnections().some((c) => c.remotePeer.toString() === peer)).toBe(true)

      // It goes away and comes back: dialled again.
      const before = lines.length
      await b.network.stop()
      await waitFor('a dial after the disconnect', () => lines.slice(before).some((l) => l.code === 'PEER_UNREACHABLE'), { timeoutMs: 20_000 })
      const again = await startNode('b2', new MemoryHost(), { peerKey: key, listen: [`/ip4/127.0.0.1/tcp/${port}`] })
      nodes.push(again)
      await waitFor('the connection again', () => lines.slice(before).some((l) => l.msg === 'bootstrap peer connected'), { timeoutMs: 20_000 })
    } finally {
      stop()
      await stopAll(nodes)
    }
  }, 120_000)
})
