import type { LiveNodes } from './live-nodes.js'
import { dialAll, sleep, waitFor } from '../pools/index.js'
import type { Observations } from './observations.js'
import type { Plan, PlannedEvent } from '../scenario/index.js'
import type { NodePool } from '../pools/index.js'

/*
 * What happens to the network rather than through it: the initial connections, nodes leaving and
 * joining, partitions and heals. A partition closes every connection across the cut and keeps closing
 * any that reappear until the heal; a heal redials the planned links across the cut, and sync-v1
 * (run by every node on connect) carries what each side missed.
 */

/** After the dials: gossipsub grafts its meshes at its heartbeats (1 s). */
const MESH_SETTLE_MS = 3000
const CONNECT_TIMEOUT_MS = 120_000
const PARTITION_CHECK_MS = 500
/**
 * How often planned links that dropped are redialled. Nodes of the in-process runner have no
 * bootstrap list or mDNS, so this stands in for their discovery; an overloaded runner loses
 * connections (libp2p closes a connection whose pings time out), and `relinks` counts them.
 */
const KEEP_LINKS_MS = 2000
/** Links a rejoining node dials when its planned neighbours are away. */
const REJOIN_DIALS = 3

export class TopologyActions {
  private cut: Set<number> | null = null
  private enforcer: NodeJS.Timeout | undefined
  private keeper: NodeJS.Timeout | undefined
  private keeping = false
  /** Planned links found down and redialled during the run. */
  relinks = 0

  constructor (
    private readonly pool: NodePool,
    private readonly plan: Plan,
    private readonly nodes: LiveNodes,
    private readonly observations: Observations,
    private readonly progress: (text: string) => void
  ) {}

  /** Connects the planned graph (or, without control, waits for the nodes' own bootstrap). */
  async connect (): Promise<void> {
    if (this.pool.controls) {
      this.progress(`connecting ${this.pool.size} nodes over ${this.plan.edges.length} links`)
      await dialAll(this.plan.edges, async (from, to) => { await this.dialNode(from, to) })
    }
    await waitFor('every node to have a peer', async () => {
      const counts = await Promise.all(Array.from({ length: this.pool.size }, async (_, i) => (await this.pool.connectedPeers(i)).length))
      return counts.every((n) => n > 0)
    }, CONNECT_TIMEOUT_MS, 250)
    const ready = this.pool.meshesReady
    if (ready !== undefined) {
      this.progress('waiting for gossipsub meshes')
      await waitFor('gossipsub meshes', async () => await ready.call(this.pool), CONNECT_TIMEOUT_MS, 250).catch(() => {
        this.observations.notes.push('gossipsub meshes were not complete when the activity started')
      })
    }
    await sleep(MESH_SETTLE_MS)
    if (this.pool.controls) {
      this.keeper = setInterval(() => { void this.keepLinks() }, KEEP_LINKS_MS)
      this.keeper.unref()
    }
  }

  /** Stops the background work (link keeping, partition enforcement). */
  stop (): void {
    clearInterval(this.keeper)
    clearInterval(this.enforcer)
  }

  /** Redials the planned links that are down between online nodes on the same side of any cut. */
  private async keepLinks (): Promise<void> {
    if (this.keeping) return
    this.keeping = true
    try {
      const online = this.nodes.online()
      const peers = new Map(await Promise.all(online.map(async (i) => [i, new Set(await this.pool.connectedPeers(i).catch(() => []))] as const)))
      const cut = this.cut
      const down = this.plan.edges.filter(([a, b]) => {
        const from = peers.get(a)
        if (from === undefined || !peers.has(b)) return false
        if (cut !== null && cut.has(a) !== cut.has(b)) return false
        return !from.has(this.pool.info(b).peerId)
      })
      if (down.length === 0) return
      this.relinks += down.length
      await dialAll(down, async (from, to) => { await this.dialNode(from, to) }).catch(() => {})
    } finally {
      this.keeping = false
    }
  }

  async apply (event: PlannedEvent): Promise<void> {
    if (!this.pool.controls) {
      this.observations.notes.push(`${event.kind} at minute ${event.at} skipped: this runner has no control over the nodes`)
      return
    }
    switch (event.kind) {
      case 'leave':
        this.progress(`minute ${event.at}: ${event.nodes.length} nodes leave`)
        await Promise.all(event.nodes.map(async (i) => { await this.nodes.leave(i) }))
        return
      case 'join':
        this.progress(`minute ${event.at}: ${event.nodes.length} nodes join again`)
        for (const i of event.nodes) {
          await this.nodes.join(i)
          await this.redial(i)
        }
        return
      case 'partition':
        this.progress(`minute ${event.at}: partition, ${event.side.length} nodes cut off from ${this.pool.size - event.side.length}`)
        this.cut = new Set(event.side)
        await this.enforceCut()
        this.enforcer = setInterval(() => { void this.enforceCut().catch(() => {}) }, PARTITION_CHECK_MS)
        return
      case 'heal':
        this.progress(`minute ${event.at}: the partition heals`)
        await this.heal()
    }
  }

  /** End of the run: the partition (if any) heals, and the observers catch up with their peers. */
  async settle (): Promise<void> {
    if (!this.pool.controls) return
    if (this.cut !== null) await this.heal()
    await Promise.all(this.plan.observers.filter((i) => this.nodes.isOnline(i)).map(async (i) => {
      await this.pool.syncAll(i).catch(() => {})
    }))
  }

  private async heal (): Promise<void> {
    clearInterval(this.enforcer)
    const cut = this.cut
    this.cut = null
    if (cut === null) return
    const across = this.plan.edges.filter(([a, b]) => cut.has(a) !== cut.has(b) && this.nodes.isOnline(a) && this.nodes.isOnline(b))
    await dialAll(across, async (from, to) => { await this.dialNode(from, to) }).catch((err: unknown) => {
      this.observations.notes.push(`heal: ${err instanceof Error ? err.message : String(err)}`)
    })
  }

  /**
   * Each online node keeps only its connections to nodes on its own side. Peers outside the scenario
   * (the docker runner's bootstrap node) belong to neither side: left connected, they would carry
   * gossip across the cut.
   */
  private async enforceCut (): Promise<void> {
    const cut = this.cut
    if (cut === null) return
    const sideOf = new Map<string, boolean>()
    for (const i of this.nodes.online()) sideOf.set(this.pool.info(i).peerId, cut.has(i))
    await Promise.all(this.nodes.online().map(async (i) => {
      for (const peer of await this.pool.connectedPeers(i)) {
        if (sideOf.get(peer) !== cut.has(i)) await this.pool.hangUp(i, peer)
      }
    }))
  }

  /** A rejoining node dials its planned neighbours that are online (or a few others), on its side of any cut. */
  private async redial (node: number): Promise<void> {
    const sameSide = (j: number): boolean => this.cut === null || this.cut.has(j) === this.cut.has(node)
    const planned = this.plan.edges.flatMap(([a, b]) => a === node ? [b] : b === node ? [a] : [])
    let targets = planned.filter((j) => this.nodes.isOnline(j) && sameSide(j))
    if (targets.length === 0) targets = this.nodes.online().filter((j) => j !== node && sameSide(j)).slice(0, REJOIN_DIALS)
    await dialAll(targets.map((j) => [node, j]), async (from, to) => { await this.dialNode(from, to) }).catch((err: unknown) => {
      this.observations.notes.push(`rejoin of node ${node}: ${err instanceof Error ? err.message : String(err)}`)
    })
  }

  private async dialNode (from: number, to: number): Promise<void> {
    const target = this.pool.info(to).multiaddrs[0]
    if (target === undefined) throw new Error(`node ${to} has no address`)
    await this.pool.dial(from, target)
  }
}
