import { GOSSIPSUB } from './links.js'
import { EventQueue, type ScheduledEvent } from './queue.js'
import type { FastRandom } from './fast-random.js'

/*
 * The modelled network's shape in one epoch (between two churn or partition events): the peer graph
 * (the plan's links between online nodes on the same side of any cut, plus the links a rejoining node
 * dials), gossipsub's mesh on it, and its connected components.
 *
 * The mesh follows gossipsub's heartbeat rules: a node with fewer than Dlo mesh peers grafts random
 * peers up to D, one with more than Dhi prunes random ones back to D, GRAFT and PRUNE act on both
 * ends, and mesh links survive an epoch change when both ends stay connected. The heartbeat that
 * applies the rules after a change is taken as immediate (it is at most 1 s away).
 *
 * Distances are paths a message takes: a publisher sends to every peer (src/net sets floodPublish),
 * a receiver forwards to its mesh peers, and a peer outside the mesh learns of the message from
 * IHAVE gossip (a repair hop). A distance is `repairs × REPAIR + hops`, so the shortest is the path
 * with the fewest repairs, then the fewest hops; gossipsub's first arrival is taken along it.
 */

/** Weight of one IHAVE/IWANT repair in a distance: more than any number of plain hops. */
export const REPAIR = 1 << 12
export const UNREACHABLE = 0x7fffffff

export function hopsOf (distance: number): number {
  return distance % REPAIR
}

export function repairsOf (distance: number): number {
  return Math.floor(distance / REPAIR)
}

/** Links a rejoining node dials when none of its planned neighbours is online on its side (as topology-actions.ts). */
export const REJOIN_DIALS = 3

function edgeKey (a: number, b: number, size: number): number {
  return a < b ? a * size + b : b * size + a
}

export class ModelTopology {
  readonly size: number
  readonly online: Uint8Array
  /** The side of the current cut each node is on; null without a partition. */
  side: Uint8Array | null = null
  epoch = 0
  /** CSR adjacency of the current peer graph. */
  offsets: Int32Array = new Int32Array(1)
  peers: Int32Array = new Int32Array(0)
  /** Per adjacency slot: 1 when that link is in the mesh. */
  meshLink: Uint8Array = new Uint8Array(0)
  meshDegree: Int32Array
  /** Connected component of each online node in the peer graph; -1 offline. */
  component: Int32Array
  components = 0
  /** Whether the mesh alone connects every component (no message needs IHAVE repair). */
  meshSpans = true
  private readonly planned: ReadonlyArray<readonly [number, number]>
  private readonly extra: Array<[number, number]> = []
  private mesh = new Set<number>()
  private readonly distances = new Map<number, Int32Array>()
  private readonly published = new Map<number, Int32Array>()
  /** Visit stamps of the two-sided search: a node is seen by the current search when its stamp is the search's. */
  private readonly seenFrom: Int32Array
  private readonly seenTo: Int32Array
  private readonly depthFrom: Int32Array
  private readonly depthTo: Int32Array
  private readonly fifoTo: Int32Array
  private stamp = 0
  private readonly queue = new EventQueue()
  private readonly popped: ScheduledEvent = { time: 0, kind: 0, a: 0, b: 0 }
  private readonly scratch: Int32Array
  private readonly fifo: Int32Array

  constructor (size: number, edges: ReadonlyArray<readonly [number, number]>, private readonly random: FastRandom) {
    this.size = size
    this.planned = edges
    this.online = new Uint8Array(size).fill(1)
    this.meshDegree = new Int32Array(size)
    this.component = new Int32Array(size)
    this.scratch = new Int32Array(size)
    this.fifo = new Int32Array(size)
    this.fifoTo = new Int32Array(size)
    this.seenFrom = new Int32Array(size)
    this.seenTo = new Int32Array(size)
    this.depthFrom = new Int32Array(size)
    this.depthTo = new Int32Array(size)
    this.rebuild()
  }

  connected (a: number, b: number): boolean {
    return this.online[a] === 1 && this.online[b] === 1 && this.component[a] === this.component[b]
  }

  /** Online peers of `node` in this epoch. */
  peersOf (node: number): Int32Array {
    return this.peers.subarray(this.offsets[node] as number, this.offsets[node + 1] as number)
  }

  /** A node coming back dials its planned neighbours; with none online on its side, a few others. */
  rejoin (node: number): void {
    const sameSide = (j: number): boolean => this.side === null || this.side[j] === this.side[node]
    const planned = this.planned.some(([a, b]) => (a === node && this.online[b] === 1 && sameSide(b)) || (b === node && this.online[a] === 1 && sameSide(a)))
    if (planned) return
    let dialled = 0
    for (let j = 0; j < this.size && dialled < REJOIN_DIALS; j++) {
      if (j === node || this.online[j] !== 1 || !sameSide(j)) continue
      this.extra.push([node, j])
      dialled++
    }
  }

  /** A new epoch: the peer graph, mesh and components after the online set or the cut changed. */
  rebuild (): void {
    const { size } = this
    const active = new Set<number>()
    const pairs: Array<readonly [number, number]> = []
    const sameSide = (a: number, b: number): boolean => this.side === null || this.side[a] === this.side[b]
    for (const list of [this.planned, this.extra]) {
      for (const [a, b] of list) {
        if (this.online[a] !== 1 || this.online[b] !== 1 || !sameSide(a, b)) continue
        const key = edgeKey(a, b, size)
        if (active.has(key)) continue
        active.add(key)
        pairs.push([a, b])
      }
    }
    const degree = new Int32Array(size + 1)
    for (const [a, b] of pairs) { degree[a]!++; degree[b]!++ }
    const offsets = new Int32Array(size + 1)
    for (let i = 0; i < size; i++) offsets[i + 1] = (offsets[i] as number) + (degree[i] as number)
    const fill = offsets.slice(0, size)
    const peers = new Int32Array(offsets[size] as number)
    for (const [a, b] of pairs) { peers[fill[a]!++] = b; peers[fill[b]!++] = a }
    this.offsets = offsets
    this.peers = peers
    this.buildMesh(active)
    this.labelComponents()
    this.distances.clear()
    this.published.clear()
    this.epoch++
  }

  private buildMesh (active: ReadonlySet<number>): void {
    const { size } = this
    const mesh = new Set<number>()
    for (const key of this.mesh) if (active.has(key)) mesh.add(key)
    const degree = new Int32Array(size)
    for (const key of mesh) { degree[Math.floor(key / size)]!++; degree[key % size]!++ }
    const order = this.shuffled(Array.from({ length: size }, (_, i) => i))
    for (const u of order) {
      if ((degree[u] as number) >= GOSSIPSUB.Dlo) continue
      for (const v of this.shuffled([...this.peersOf(u)])) {
        if ((degree[u] as number) >= GOSSIPSUB.D) break
        const key = edgeKey(u, v, size)
        if (mesh.has(key)) continue
        mesh.add(key)
        degree[u]!++
        degree[v]!++
      }
    }
    for (const u of order) {
      if ((degree[u] as number) <= GOSSIPSUB.Dhi) continue
      for (const v of this.shuffled([...this.peersOf(u)])) {
        if ((degree[u] as number) <= GOSSIPSUB.D) break
        const key = edgeKey(u, v, size)
        if (!mesh.delete(key)) continue
        degree[u]!--
        degree[v]!--
      }
    }
    this.mesh = mesh
    this.meshDegree = degree
    this.meshLink = new Uint8Array(this.peers.length)
    for (let u = 0; u < size; u++) {
      for (let s = this.offsets[u] as number; s < (this.offsets[u + 1] as number); s++) {
        if (mesh.has(edgeKey(u, this.peers[s] as number, size))) this.meshLink[s] = 1
      }
    }
  }

  private labelComponents (): void {
    const count = (meshOnly: boolean, label: Int32Array): number => {
      label.fill(-1)
      let components = 0
      for (let start = 0; start < this.size; start++) {
        if (this.online[start] !== 1 || label[start] !== -1) continue
        let head = 0
        let tail = 0
        this.fifo[tail++] = start
        label[start] = components
        while (head < tail) {
          const u = this.fifo[head++] as number
          for (let s = this.offsets[u] as number; s < (this.offsets[u + 1] as number); s++) {
            const v = this.peers[s] as number
            if (label[v] !== -1 || (meshOnly && this.meshLink[s] !== 1)) continue
            label[v] = components
            this.fifo[tail++] = v
          }
        }
        components++
      }
      return components
    }
    this.components = count(false, this.component)
    this.meshSpans = count(true, this.scratch) === this.components
  }

  /**
   * Distances to `target` from every node over this epoch's graph (undirected, so the same as from
   * `target`), computed once per epoch and target.
   */
  distancesTo (target: number): Int32Array {
    let d = this.distances.get(target)
    if (d === undefined) {
      d = new Int32Array(this.size)
      this.search(target, false, d, null)
      this.distances.set(target, d)
    }
    return d
  }

  /**
   * The distance a message published by `source` travels to `target`: the first hop goes straight to
   * every peer, mesh or not (flood publish), then the mesh. Per target, one pass over the graph per
   * epoch gives it from every source.
   */
  publishDistance (source: number, target: number): number {
    if (source === target) return 0
    if (!this.connected(source, target)) return UNREACHABLE
    let flood = this.published.get(target)
    if (flood === undefined) {
      const d = this.distancesTo(target)
      flood = new Int32Array(this.size)
      for (let s = 0; s < this.size; s++) {
        let best = d[s] as number
        for (let k = this.offsets[s] as number; k < (this.offsets[s + 1] as number); k++) {
          const via = d[this.peers[k] as number] as number
          if (via !== UNREACHABLE && via + 1 < best) best = via + 1
        }
        flood[s] = best
      }
      flood[target] = 0
      this.published.set(target, flood)
    }
    return flood[source] as number
  }

  /** Distances from `source` (flood-published) to each of `targets`. */
  distancesFrom (source: number, targets: readonly number[]): number[] {
    if (this.meshSpans) return targets.map((t) => t === source ? 0 : this.connected(source, t) ? this.meetInTheMiddle(source, t) : UNREACHABLE)
    const wanted = targets.filter((t) => this.connected(source, t) && t !== source)
    if (wanted.length === 0) return targets.map((t) => t === source ? 0 : UNREACHABLE)
    this.search(source, true, this.scratch, wanted)
    return targets.map((t) => t === source ? 0 : this.connected(source, t) ? this.scratch[t] as number : UNREACHABLE)
  }

  /**
   * Hops from `source` (flood publish: its first hop reaches every peer) to `target` over the mesh,
   * for a mesh that spans its component: breadth-first from both ends, a level at a time on the
   * smaller side, until the two meet — a few hundred nodes visited rather than the whole network.
   */
  private meetInTheMiddle (source: number, target: number): number {
    const stamp = ++this.stamp
    const { seenFrom, seenTo, depthFrom, depthTo, fifo, fifoTo, offsets, peers, meshLink } = this
    let fromHead = 0
    let fromTail = 0
    let toHead = 0
    let toTail = 0
    seenFrom[source] = stamp
    depthFrom[source] = 0
    seenTo[target] = stamp
    depthTo[target] = 0
    fifoTo[toTail++] = target
    // The publisher's flood: every peer at one hop.
    for (let k = offsets[source] as number; k < (offsets[source + 1] as number); k++) {
      const v = peers[k] as number
      if (v === target) return 1
      seenFrom[v] = stamp
      depthFrom[v] = 1
      fifo[fromTail++] = v
    }
    let best = UNREACHABLE
    while (fromHead < fromTail && toHead < toTail) {
      const forward = fromTail - fromHead <= toTail - toHead
      const queue = forward ? fifo : fifoTo
      const seen = forward ? seenFrom : seenTo
      const depth = forward ? depthFrom : depthTo
      const other = forward ? seenTo : seenFrom
      const otherDepth = forward ? depthTo : depthFrom
      let head = forward ? fromHead : toHead
      let tail = forward ? fromTail : toTail
      const level = depth[queue[head] as number] as number
      // Expand one whole level; the shortest meeting within it is the answer.
      while (head < tail && depth[queue[head] as number] === level) {
        const u = queue[head++] as number
        for (let k = offsets[u] as number; k < (offsets[u + 1] as number); k++) {
          if (meshLink[k] !== 1) continue
          const v = peers[k] as number
          if (other[v] === stamp) {
            const total = level + 1 + (otherDepth[v] as number)
            if (total < best) best = total
          }
          if (seen[v] === stamp) continue
          seen[v] = stamp
          depth[v] = level + 1
          queue[tail++] = v
        }
      }
      if (forward) { fromHead = head; fromTail = tail } else { toHead = head; toTail = tail }
      if (best !== UNREACHABLE) return best
    }
    return best
  }

  /**
   * Shortest distances from `root` into `out` (UNREACHABLE where none); with `flood`, the root's
   * first hop reaches every peer as a plain hop. Stops early once every node of `stopAfter` is settled.
   * A breadth-first search when the mesh spans every component (no repair hop can be shorter), else
   * Dijkstra on the binary heap.
   */
  private search (root: number, flood: boolean, out: Int32Array, stopAfter: readonly number[] | null): void {
    out.fill(UNREACHABLE)
    out[root] = 0
    let remaining = stopAfter === null ? -1 : stopAfter.length
    const wanted = stopAfter === null ? null : new Set(stopAfter)
    const settle = (v: number): boolean => wanted !== null && wanted.has(v) && --remaining === 0
    if (this.meshSpans) {
      let head = 0
      let tail = 0
      this.fifo[tail++] = root
      while (head < tail) {
        const u = this.fifo[head++] as number
        if (settle(u)) return
        const next = (out[u] as number) + 1
        const all = flood && u === root
        for (let s = this.offsets[u] as number; s < (this.offsets[u + 1] as number); s++) {
          const v = this.peers[s] as number
          if (out[v] !== UNREACHABLE || (!all && this.meshLink[s] !== 1)) continue
          out[v] = next
          this.fifo[tail++] = v
        }
      }
      return
    }
    const queue = this.queue
    queue.push(0, 0, root)
    while (queue.size > 0) {
      const { time, a: u } = queue.pop(this.popped) as ScheduledEvent
      if (time > (out[u] as number)) continue
      if (settle(u)) break
      const all = flood && u === root
      for (let s = this.offsets[u] as number; s < (this.offsets[u + 1] as number); s++) {
        const v = this.peers[s] as number
        const next = time + 1 + (all || this.meshLink[s] === 1 ? 0 : REPAIR)
        if (next >= (out[v] as number)) continue
        out[v] = next
        queue.push(next, 0, v)
      }
    }
    while (queue.size > 0) queue.pop(this.popped)
  }

  private shuffled<T> (items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.random.next() * (i + 1))
      const t = items[i] as T
      items[i] = items[j] as T
      items[j] = t
    }
    return items
  }
}
