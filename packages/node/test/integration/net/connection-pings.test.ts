import { afterAll, describe, expect, it } from 'vitest'
import { PING_PROTOCOL } from '@libp2p/ping'
import { connect, startNode, stopAll, waitFor, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

describe('connection pings (libp2p nodes on loopback)', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  afterAll(async () => { await stopAll(nodes) })

  it('pings every connection at its own phase over /ipfs/ping/1.0.0 and records its round trip, from both ends', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 300, abortOnPingFailure: true } }
    const a = await startNode('PA', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const b = await startNode('PB', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const c = await startNode('PC', new MemoryHost(), { syncOnConnect: false, ...monitor })
    nodes.push(a, b, c)
    let answered = 0
    // B answers pings itself, counting them (its ping service would otherwise answer).
    await b.network.libp2p.unhandle(PING_PROTOCOL)
    await b.network.libp2p.handle(PING_PROTOCOL, async (stream) => {
      answered++
      stream.addEventListener('message', (event) => { stream.send(event.data) })
      stream.addEventListener('remoteCloseWrite', () => { void stream.close() })
    })
    await connect(a, b)
    await connect(a, c)
    const pinged = (node: TestNode<MemoryHost>): boolean => node.network.libp2p.getConnections().every((conn) => conn.rtt !== undefined)
    await waitFor('a round trip on every connection', () => pinged(a) && pinged(b) && pinged(c), { timeoutMs: 5000 })
    expect(a.network.libp2p.getConnections()).toHaveLength(2)
    // A pings B, and B's own pings of A go out too: both ends of the link keep it alive.
    await waitFor('pings answered by B', () => answered >= 2, { timeoutMs: 5000 })
    expect(a.network.libp2p.getConnections().every((conn) => conn.status === 'open')).toBe(true)
  })

  it('keeps a connection to a peer that does not speak the ping protocol (it answered, so the link is alive)', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 200, abortOnPingFailure: true } }
    const a = await startNode('PD', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const mute = await startNode('PE', new MemoryHost(), { syncOnConnect: false, connectionMonitor: { pingIntervalMs: 60_000, abortOnPingFailure: false } })
    nodes.push(a, mute)
    await mute.network.libp2p.unhandle(PING_PROTOCOL)
    await connect(a, mute)
    // Five intervals: every one of A's pings is refused by multistream-select.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(a.network.libp2p.getConnections().map((conn) => conn.status)).toEqual(['open'])
    expect(a.network.libp2p.getConnections()[0]?.rtt).toBeUndefined()
  })

  it('keeps a connection whose peer echoes the ping but never closes its end of the stream (the echo proved the link)', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 200, abortOnPingFailure: true } }
    const a = await startNode('PF', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const slow = await startNode('PG', new MemoryHost(), { syncOnConnect: false, connectionMonitor: { pingIntervalMs: 60_000, abortOnPingFailure: false } })
    nodes.push(a, slow)
    let answered = 0
    await slow.network.libp2p.unhandle(PING_PROTOCOL)
    await slow.network.libp2p.handle(PING_PROTOCOL, async (stream) => {
      answered++
      stream.addEventListener('message', (event) => { stream.send(event.data) })
    })
    await connect(a, slow)
    // Each of A's pings is echoed, then its close waits out the ping's timeout (the interval).
    await waitFor('three pings echoed', () => answered >= 3, { timeoutMs: 10_000 })
    expect(a.network.libp2p.getConnections().map((conn) => conn.status)).toEqual(['open'])
    expect(a.network.libp2p.getConnections()[0]?.rtt).toBeDefined()
  }, 20_000)

  it('closes a connection whose peer takes the ping but never echoes it', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 500, abortOnPingFailure: true } }
    const a = await startNode('PH', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const deaf = await startNode('PI', new MemoryHost(), { syncOnConnect: false, connectionMonitor: { pingIntervalMs: 60_000, abortOnPingFailure: false } })
    nodes.push(a, deaf)
    await deaf.network.libp2p.unhandle(PING_PROTOCOL)
    await deaf.network.libp2p.handle(PING_PROTOCOL, async () => {}) // reads nothing, sends nothing
    await connect(a, deaf)
    await waitFor('the silent connection closed', () => a.network.libp2p.getConnections().length === 0, { timeoutMs: 15_000 })
  }, 20_000)

  it('keeps a connection whose ping timed out while this node\'s own event loop stalled (the loop, not the link)', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 1000, abortOnPingFailure: true } }
    const a = await startNode('PJ', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const b = await startNode('PK', new MemoryHost(), { syncOnConnect: false, connectionMonitor: { pingIntervalMs: 60_000, abortOnPingFailure: false } })
    nodes.push(a, b)
    let stalled = 0
    let echoed = 0
    await b.network.libp2p.unhandle(PING_PROTOCOL)
    await b.network.libp2p.handle(PING_PROTOCOL, async (stream) => {
      stream.addEventListener('message', (event) => {
        // The first two pings find the process's one event loop busy for 2.5 s, past A's 1 s ping
        // timeout, before they are echoed: A's timeout fires before A reads the echo.
        if (stalled < 2) {
          stalled++
          const until = Date.now() + 2500
          while (Date.now() < until) { /* the loop is busy */ }
        }
        stream.send(event.data)
        echoed++
      })
      stream.addEventListener('remoteCloseWrite', () => { void stream.close() })
    })
    await connect(a, b)
    let closed = 0
    a.network.libp2p.addEventListener('connection:close', () => { closed++ })
    await waitFor('two stalled pings, then pings echoed again', () => stalled === 2 && echoed >= 4, { timeoutMs: 20_000 })
    expect(closed).toBe(0)
    expect(a.network.libp2p.getConnections().map((conn) => conn.status)).toEqual(['open'])
  }, 30_000)
})
