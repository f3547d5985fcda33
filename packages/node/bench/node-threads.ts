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

/** Meshes reported by the worker threads are judged by the simulation's pure check. */
export { meshesConnected as meshesReady, type NodeMesh } from 'isnad-sim'

