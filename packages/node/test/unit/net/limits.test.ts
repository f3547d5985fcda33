import { describe, expect, it } from 'vitest'
import type { Connection } from '@libp2p/interface'
import { ConnectionGuard } from '../../../src/net/limits/limits-connections.js'
import { RateLimiter, rateLimitedHandler } from '../../../src/net/limits/limits.js'
import { UsefulPeers, USEFUL_PEER_RETAG_MS } from '../../../src/net/gossip/scoring.js'

describe('RateLimiter (docs/limits.md)', () => {
  it('allows a burst, then the sustained rate, per key', () => {
    let now = 0
    const limiter = new RateLimiter(10, 3, () => now)
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false])
    expect(limiter.take('b')).toBe(true) // another key, its own bucket
    expect(limiter.retryAfterSeconds('a')).toBe(1)
    now += 100 // one token back at 10 per second
    expect([limiter.take('a'), limiter.take('a')]).toEqual([true, false])
  })

  it('remembers a bounded number of keys, forgetting the least recently seen', () => {
    const limiter = new RateLimiter(1, 1, () => 0, 3)
    for (const key of ['a', 'b', 'c', 'd', 'e']) limiter.take(key)
    expect(limiter.size).toBe(3)
  })
})

describe('UsefulPeers and ConnectionGuard (eclipse resistance)', () => {
  it('tags a peer once per interval', async () => {
    let now = 0
    const tagged: string[] = []
    const peers = new UsefulPeers(async (peer) => { tagged.push(peer) }, () => now)
    peers.markUseful('p')
    peers.markUseful('p')
    now += USEFUL_PEER_RETAG_MS
    peers.markUseful('p')
    expect(tagged).toEqual(['p', 'p'])
    expect(peers.isUseful('p')).toBe(true)
    expect(peers.isUseful('q')).toBe(false)
  })

  it('closes the excess, inbound strangers first, newest first; keeps useful and outbound peers', () => {
    const closed: string[] = []
    const connection = (peer: string, direction: 'inbound' | 'outbound', open: number): Connection => ({
      remotePeer: { toString: () => peer }, direction, timeline: { open }, close: async () => { closed.push(peer) }, abort: () => {}
    }) as unknown as Connection
    const connections = [
      connection('useful', 'inbound', 1), connection('chosen', 'outbound', 2), connection('old-stranger', 'inbound', 3),
      connection('sybil-1', 'inbound', 4), connection('sybil-2', 'inbound', 5)
    ]
    const libp2p = { getConnections: () => connections, addEventListener: () => {}, removeEventListener: () => {} }
    const guard = new ConnectionGuard(libp2p as never, 3, (peer) => peer === 'useful')
    expect(guard.enforce()).toBe(2)
    expect(closed.sort()).toEqual(['sybil-1', 'sybil-2'])
  })
})

describe('rateLimitedHandler (fetch-v1, sync-v1 rates)', () => {
  it('resets streams over the peer\'s rate unread and reports the peer; others pass through', async () => {
    const handled: string[] = []
    const limitedPeers: string[] = []
    const aborted: string[] = []
    const handler = rateLimitedHandler(async (_stream, connection) => { handled.push(connection.remotePeer.toString()) },
      new RateLimiter(1, 2, () => 0), (connection) => { limitedPeers.push(connection.remotePeer.toString()) })
    const call = async (peer: string): Promise<void> => {
      const stream = { abort: () => { aborted.push(peer) } }
      await handler(stream as never, { remotePeer: { toString: () => peer } } as never)
    }
    for (const peer of ['a', 'a', 'a', 'b']) await call(peer)
    expect(handled).toEqual(['a', 'a', 'b'])
    expect(aborted).toEqual(['a'])
    expect(limitedPeers).toEqual(['a'])
  })
})
