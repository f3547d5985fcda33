import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { ConnectionPings } from '../../../src/net/limits/connection-pings.js'
import { PING_PROTOCOL } from '@libp2p/ping'
import { connect, startNode, stopAll, waitFor, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

describe('connection pings (libp2p nodes on loopback)', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  afterAll(async () => { await stopAll(nodes) })

  it('pings every connection at its own phase over /ipfs/ping/1.0.0 and records its round trip', async () => {
    const monitor = { connectionMonitor: { pingIntervalMs: 300, abortOnPingFailure: true } }
    const a = await startNode('PA', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const b = await startNode('PB', new MemoryHost(), { syncOnConnect: false, ...monitor })
    const c = await startNode('PC', new MemoryHost(), { syncOnConnect: false, ...monitor })
    nodes.push(a, b, c)
    await connect(a, b)
    await connect(a, c)
    // Each link's round trip is known at the end that pinged it.
    const rttAt = (x: TestNode<MemoryHost>, y: TestNode<MemoryHost>): number | undefined =>
      x.network.libp2p.getConnections(y.network.libp2p.peerId).find((conn) => conn.status === 'open')?.rtt
    const measured = (x: TestNode<MemoryHost>, y: TestNode<MemoryHost>): boolean => rttAt(x, y) !== undefined || rttAt(y, x) !== undefined
    await waitFor('a round trip on every link', () => measured(a, b) && measured(a, c), { timeoutMs: 5000 })
    expect(a.network.libp2p.getConnections()).toHaveLength(2)
    expect(a.network.libp2p.getConnections().every((conn) => conn.status === 'open')).toBe(true)
  })

  it('pings a connection once per interval, from whichever end comes first: an end its peer pinged within the interval does not ping', async () => {
    // The networks' own pings a minute apart; these two, at 300 ms, are watched (their handlers replace the networks').
    const quiet = { connectionMonitor: { pingIntervalMs: 60_000, abortOnPingFailure: false } }
    const a = await startNode('PL', new MemoryHost(), { syncOnConnect: false, ...quiet })
    const b = await startNode('PM', new MemoryHost(), { syncOnConnect: false, ...quiet })
    nodes.push(a, b)
    await connect(a, b)
    const intervalMs = 300
    const log = a.network.libp2p.logger.forComponent('test:pings')
    const pings = [a, b].map((node) => new ConnectionPings(node.network.libp2p, { pingIntervalMs: intervalMs, abortOnPingFailure: true }, log))
    for (const p of pings) await p.start()
    onTestFinished(() => { for (const p of pings) p.stop() })
    const sent = (): number => pings.reduce((total, p) => total + p.sent, 0)
    await waitFor('the first ping', () => sent() >= 1, { timeoutMs: 5000 })
    const before = sent()
    await new Promise((resolve) => setTimeout(resolve, 12 * intervalMs))
    // One an interval (12), not one from each end (24); a little slack for the timer's ticks.
    expect(sent() - before).toBeGreaterThanOrEqual(8)
    expect(sent() - before).toBeLessThanOrEqual(16)
    expect(a.network.libp2p.getConnections().map((conn) => conn.status)).toEqual(['open'])
    // The end that pinged knows the round trip.
    expect(a.network.libp2p.getConnections()[0]?.rtt ?? b.network.libp2p.getConnections()[0]?.rtt).toBeDefined()
  }, 20_000)

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
