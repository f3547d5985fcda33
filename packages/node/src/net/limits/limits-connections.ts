import type { Connection, Libp2p } from '@libp2p/interface'

/**
 * The connection limit as an eclipse defence (docs/limits.md, docs/threat-model.md). libp2p's own
 * pruner never closes a connection that carries a gossipsub stream, which every isnad peer opens at
 * once, so a crowd of Sybils dialling in would stay connected past `maxConnections` and could crowd
 * out honest peers. This guard closes the excess itself, least valuable first:
 * inbound before outbound (peers this node chose), strangers before peers that delivered valid
 * records (`isUseful`), newest before oldest.
 */
export class ConnectionGuard {
  private scheduled = false

  constructor (
    private readonly libp2p: Pick<Libp2p, 'getConnections' | 'addEventListener' | 'removeEventListener'>,
    private readonly maxConnections: number,
    private readonly isUseful: (peerId: string) => boolean
  ) {}

  start (): void {
    this.libp2p.addEventListener('connection:open', this.onOpen)
  }

  stop (): void {
    this.libp2p.removeEventListener('connection:open', this.onOpen)
  }

  /** Closes connections beyond the limit now; returns how many it closed. */
  enforce (): number {
    const connections = this.libp2p.getConnections()
    const excess = connections.length - this.maxConnections
    if (excess <= 0) return 0
    const victims = [...connections].sort((a, b) => this.valueOf(a) - this.valueOf(b) || b.timeline.open - a.timeline.open).slice(0, excess)
    for (const connection of victims) {
      connection.close().catch((err: unknown) => { connection.abort(err instanceof Error ? err : new Error(String(err))) })
    }
    return victims.length
  }

  /** Higher is kept longer: a useful peer outranks any stranger, a chosen (outbound) peer an inbound one. */
  private valueOf (connection: Connection): number {
    return (this.isUseful(connection.remotePeer.toString()) ? 2 : 0) + (connection.direction === 'outbound' ? 1 : 0)
  }

  /** Once per burst of new connections: a Sybil wave opens many in the same tick. */
  private readonly onOpen = (): void => {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.enforce()
    })
  }
}
