import type { PeerId } from '@libp2p/interface'
import type { QueryEvent } from '@libp2p/kad-dht'

/**
 * How far a DHT lookup went (content-routing-v1 C5): a peer the lookup started from (one of this
 * node's routing table) is 1 hop away; a peer first named in the closer peers of a peer n hops
 * away is n + 1 hops away; this node itself is 0. The hop count of a provider is that of the peer
 * whose answer named it.
 */
export class HopCounter {
  private readonly hops = new Map<string, number>()
  private readonly asked = new Set<string>()

  constructor (self: PeerId) {
    this.hops.set(self.toString(), 0)
  }

  /** Peers the lookup has sent a query to so far. */
  get queried (): number {
    return this.asked.size
  }

  observe (event: QueryEvent): void {
    if (event.name === 'SEND_QUERY') {
      const to = event.to.toString()
      this.asked.add(to)
      if (!this.hops.has(to)) this.hops.set(to, 1)
    } else if (event.name === 'PEER_RESPONSE') {
      const next = this.of(event.from) + 1
      for (const peer of event.closer) {
        const key = peer.id.toString()
        if (!this.hops.has(key)) this.hops.set(key, next)
      }
    }
  }

  /** The hops to `peer`; 1 for a peer the lookup never named (it can only have started there). */
  of (peer: PeerId): number {
    return this.hops.get(peer.toString()) ?? 1
  }
}
