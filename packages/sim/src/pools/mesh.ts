import { performance } from 'node:perf_hooks'
import type { Network, Topic } from 'isnad/engine'

/*
 * Building a network of nodes on loopback, shared by the simulation and the network benchmarks:
 * paced dials over a sparse random graph (plan.ts randomTopology), and a wait until gossipsub has
 * built its meshes over it.
 */

/** gossipsub's GossipsubDlo: below this many mesh peers a node grafts more at its next heartbeat. */
const MESH_LOW = 4

export async function sleep (ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `predicate` every `intervalMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor (what: string, predicate: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 20): Promise<void> {
  const until = performance.now() + timeoutMs
  for (;;) {
    if (await predicate()) return
    if (performance.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(intervalMs)
  }
}

/**
 * libp2p's connection manager refuses more than 5 inbound connections per second from one IP
 * (inboundConnectionThreshold), and every node here is 127.0.0.1: dials to one target are paced
 * below that, and a refused dial is retried.
 */
const DIALS_PER_TARGET_PER_WINDOW = 3
const DIAL_WINDOW_MS = 1100
const DIAL_ATTEMPTS = 5

/** Runs the dials with at most `concurrency` in flight (a burst of Noise handshakes starves the loop). */
export async function dialAll (edges: ReadonlyArray<[number, number]>, dial: (from: number, to: number) => Promise<void>, concurrency = 16): Promise<void> {
  const pending = edges.map((edge) => ({ edge, attempts: 0 }))
  const recent = new Map<number, number[]>()
  let running = 0
  let failure: Error | undefined
  const admits = (target: number): boolean => {
    const now = performance.now()
    const starts = (recent.get(target) ?? []).filter((t) => now - t < DIAL_WINDOW_MS)
    recent.set(target, starts)
    return starts.length < DIALS_PER_TARGET_PER_WINDOW
  }
  const worker = async (): Promise<void> => {
    while (failure === undefined && (pending.length > 0 || running > 0)) {
      const at = pending.findIndex(({ edge }) => admits(edge[1]))
      if (at < 0) {
        await sleep(50)
        continue
      }
      const item = pending.splice(at, 1)[0] as { edge: [number, number], attempts: number }
      const [from, to] = item.edge
      recent.get(to)?.push(performance.now())
      running++
      try {
        await dial(from, to)
      } catch (err) {
        if (++item.attempts >= DIAL_ATTEMPTS) failure = new Error(`dialling node ${to} from node ${from} failed ${DIAL_ATTEMPTS} times`, { cause: err })
        else pending.push(item)
      } finally {
        running--
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, edges.length) }, worker))
  if (failure !== undefined) throw failure
}

/** One node's gossipsub state: its peer id, how many peers it has, and its mesh peers per topic. */
export interface NodeMesh {
  peerId: string
  peers: number
  meshes: string[][]
}

/**
 * True when, on every topic, each node has as many mesh peers as gossipsub aims for at least
 * (GossipsubDlo, or all its peers when it has fewer) and the mesh links connect every node. Pure, so
 * meshes reported from other processes are judged the same way.
 */
export function meshesConnected (nodes: readonly NodeMesh[]): boolean {
  const index = new Map(nodes.map((m, i) => [m.peerId, i]))
  const topics = nodes[0]?.meshes.length ?? 0
  for (let topic = 0; topic < topics; topic++) {
    const neighbours = nodes.map(() => new Set<number>())
    for (let i = 0; i < nodes.length; i++) {
      const { meshes, peers } = nodes[i] as NodeMesh
      const mesh = meshes[topic] ?? []
      if (mesh.length < Math.min(MESH_LOW, peers)) return false
      for (const peer of mesh) {
        const j = index.get(peer)
        if (j === undefined) continue
        neighbours[i]?.add(j)
        neighbours[j]?.add(i)
      }
    }
    const seen = new Set([0])
    const queue = [0]
    while (queue.length > 0) {
      for (const j of neighbours[queue.pop() as number] ?? []) {
        if (!seen.has(j)) { seen.add(j); queue.push(j) }
      }
    }
    if (seen.size !== nodes.length) return false
  }
  return true
}

/** The meshes of networks of this process on `topics`. */
export function meshesOf (networks: readonly Network[], topics: readonly Topic[]): NodeMesh[] {
  return networks.map((n) => ({
    peerId: n.peerId.toString(),
    peers: n.libp2p.getPeers().length,
    meshes: topics.map((t) => n.meshPeers(t))
  }))
}

/** meshesConnected over networks of this process. */
export function meshesReady (networks: readonly Network[], topics: readonly Topic[]): boolean {
  return meshesConnected(meshesOf(networks, topics))
}

/** Waits for meshesReady; returns how long it took. */
export async function waitForMeshes (networks: readonly Network[], topics: readonly Topic[], timeoutMs: number): Promise<number> {
  const start = performance.now()
  await waitFor('gossipsub meshes', () => meshesReady(networks, topics), timeoutMs, 100)
  return performance.now() - start
}
