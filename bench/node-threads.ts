import { Worker } from 'node:worker_threads'

/*
 * Worker threads of the threaded network benchmarks (network-gossip-threads.ts,
 * network-witness.ts): each runs a share of the nodes and answers one request at a time by id.
 */

/** A worker thread running a share of the nodes, answering one request at a time by id. */
export class NodeThread<Request> {
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  private next = 0

  constructor (script: URL) {
    this.worker = new Worker(script)
    this.worker.on('message', (message: { id: number, result?: unknown, error?: string }) => {
      const waiter = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (message.error !== undefined) waiter?.reject(new Error(message.error))
      else waiter?.resolve(message.result)
    })
    this.worker.on('error', (err) => { for (const waiter of this.pending.values()) waiter.reject(err) })
  }

  async request<T> (request: Request): Promise<T> {
    const id = this.next++
    return await new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.worker.postMessage({ id, request })
    })
  }

  async terminate (): Promise<void> {
    await this.worker.terminate()
  }
}

/** What a worker reports of one node's gossipsub state: its peers and its mesh on each topic asked. */
export interface NodeMesh {
  peerId: string
  peers: number
  meshes: string[][]
}

/** gossipsub's GossipsubDlo, as src/sim/mesh.ts meshesReady. */
const MESH_LOW = 4

/** meshesReady (src/sim/mesh.ts) over the nodes' reported meshes, every topic reported. */
export function meshesReady (nodes: readonly NodeMesh[]): boolean {
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

