import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PeerId } from '@libp2p/interface'
import type { QueryEvent } from '@libp2p/kad-dht'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { HopCounter } from '../../../src/net/index.js'
import { commonPrefixBits } from '../../../bench/kad-line.js'

/* content-routing-v1 C5: how many DHT hops away the peer that named a provider was. */

async function peers (n: number): Promise<PeerId[]> {
  return await Promise.all(Array.from({ length: n }, async () => peerIdFromPrivateKey(await generateKeyPair('Ed25519'))))
}

/** The two events the counter reads, with only the fields it reads (kad-dht's own events carry more). */
const sent = (to: PeerId): QueryEvent => ({ name: 'SEND_QUERY', to }) as unknown as QueryEvent
const answered = (from: PeerId, closer: PeerId[]): QueryEvent => ({ name: 'PEER_RESPONSE', from, closer: closer.map((id) => ({ id, multiaddrs: [] })), providers: [] }) as unknown as QueryEvent

describe('HopCounter', () => {
  it('counts a routing-table peer as 1 hop and each peer first named by a peer n hops away as n + 1', async () => {
    const [self, a, b, c, d] = await peers(5) as [PeerId, PeerId, PeerId, PeerId, PeerId]
    const hops = new HopCounter(self)
    hops.observe(sent(a))
    hops.observe(answered(a, [self, b]))
    hops.observe(sent(b))
    hops.observe(answered(b, [c, a]))
    hops.observe(sent(c))
    hops.observe(answered(c, [d, b]))
    expect([hops.of(self), hops.of(a), hops.of(b), hops.of(c), hops.of(d)]).toEqual([0, 1, 2, 3, 4])
    expect(hops.queried).toBe(3)
  })

  it('keeps the shortest: a peer named again later, or also in the routing table, keeps its first count', async () => {
    const [self, a, b, c] = await peers(4) as [PeerId, PeerId, PeerId, PeerId]
    const hops = new HopCounter(self)
    hops.observe(sent(a))
    hops.observe(sent(c)) // c is in the routing table too
    hops.observe(answered(a, [b, c]))
    hops.observe(answered(b, [c]))
    expect(hops.of(c)).toBe(1)
    expect(hops.of(b)).toBe(2)
  })
})

describe('commonPrefixBits (bench/kad-line.ts)', () => {
  it('counts the leading bits two ids share', () => {
    expect(commonPrefixBits(Uint8Array.of(0b1010_0000, 0), Uint8Array.of(0b1010_0000, 0))).toBe(16)
    expect(commonPrefixBits(Uint8Array.of(0b1010_0000), Uint8Array.of(0b0010_0000))).toBe(0)
    expect(commonPrefixBits(Uint8Array.of(0xff, 0b1110_0000), Uint8Array.of(0xff, 0b1111_0000))).toBe(11)
  })
})
