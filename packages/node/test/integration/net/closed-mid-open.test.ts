import { afterAll, describe, expect, it } from 'vitest'
import { PING_PROTOCOL } from '@libp2p/ping'
import { connect, startNode, stopAll, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * A connection closed while a stream on it opens (src/net/yamux-guard.ts). Yamux sends a new stream's
 * first window update in a microtask; a connection aborted in the same tick, once its round trip is
 * known, made that update throw into the event loop and ended the process. Here the process must
 * stay up, the opener must see the failure, and the node must go on dialling and answering.
 */

async function settle (): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('a connection closed while a stream opens (libp2p nodes on loopback)', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  afterAll(async () => { await stopAll(nodes) })

  it('fails the stream, not the process, and the node goes on', async () => {
    const a = await startNode('MA', new MemoryHost(), { syncOnConnect: false })
    const b = await startNode('MB', new MemoryHost(), { syncOnConnect: false })
    nodes.push(a, b)
    const uncaught: unknown[] = []
    const onUncaught = (err: unknown): void => { uncaught.push(err) }
    process.on('uncaughtException', onUncaught)
    try {
      for (let round = 0; round < 3; round++) {
        await connect(a, b)
        // A full ping exchange: yamux's own keep-alive ping, sent when the connection opened, has
        // come back by now, so the connection's round trip is known (what made the update go out).
        await a.network.libp2p.services.ping.ping(b.network.peerId)
        const [connection] = a.network.libp2p.getConnections(b.network.peerId)
        expect(connection).toBeDefined()
        const opening = connection!.newStream(PING_PROTOCOL)
        connection!.abort(new Error('closed while a stream opens'))
        await expect(opening).rejects.toThrow()
        await settle()
        expect(uncaught).toEqual([])
      }
      // Still a working node: it dials again and a stream round trip succeeds.
      await connect(a, b)
      expect(await a.network.libp2p.services.ping.ping(b.network.peerId)).toBeGreaterThanOrEqual(0)
    } finally {
      process.off('uncaughtException', onUncaught)
    }
  })
})
