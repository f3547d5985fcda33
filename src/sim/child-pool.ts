import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { NodeCounters, NodePool, SimNodeInfo } from './pool.js'

/*
 * The multi-process runner's pool (`isnad sim run --processes N`): the nodes are spread over N child
 * processes (child-host.ts), each a LocalPool of real daemons on 127.0.0.1, so nodes no longer share
 * one JavaScript thread. Node i lives in child i mod N.
 */

interface Pending { resolve: (value: unknown) => void, reject: (err: Error) => void }

class Child {
  private next = 1
  private readonly pending = new Map<number, Pending>()

  constructor (readonly process: ChildProcess) {
    process.on('message', (message: { id: number, result?: unknown, error?: string }) => {
      const waiting = this.pending.get(message.id)
      if (waiting === undefined) return
      this.pending.delete(message.id)
      if (message.error !== undefined) waiting.reject(new Error(message.error))
      else waiting.resolve(message.result)
    })
    process.on('exit', (code) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`simulation child exited (${code ?? 'signal'})`))
      this.pending.clear()
    })
  }

  async call<T> (method: string, ...args: unknown[]): Promise<T> {
    const id = this.next++
    return await new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.process.send({ id, method, args })
    })
  }
}

export class ChildPool implements NodePool {
  readonly controls = true

  private constructor (private readonly children: Child[], private readonly infos: SimNodeInfo[]) {}

  static async start (count: number, processes: number, progress: (text: string) => void = () => {}): Promise<ChildPool> {
    const entry = fileURLToPath(new URL('./child-host.js', import.meta.url))
    const n = Math.max(1, Math.min(processes, count))
    const children = Array.from({ length: n }, () => new Child(fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })))
    const sizes = children.map((_, c) => Math.floor(count / n) + (c < count % n ? 1 : 0))
    try {
      const started = await Promise.all(children.map(async (child, c) => await child.call<SimNodeInfo[]>('start', sizes[c])))
      progress(`${count} nodes started in ${n} processes`)
      const infos = Array.from({ length: count }, (_, i) => started[i % n]?.[Math.floor(i / n)] as SimNodeInfo)
      return new ChildPool(children, infos)
    } catch (err) {
      for (const child of children) child.process.kill()
      throw err
    }
  }

  get size (): number {
    return this.infos.length
  }

  info (index: number): SimNodeInfo {
    const info = this.infos[index]
    if (info === undefined) throw new RangeError(`no simulated node ${index}`)
    return info
  }

  async dial (from: number, target: string): Promise<void> { await this.at(from, 'dial', target) }
  async hangUp (from: number, peerId: string): Promise<void> { await this.at(from, 'hangUp', peerId) }
  async connectedPeers (index: number): Promise<string[]> { return await this.at(index, 'connectedPeers') }
  async stop (index: number): Promise<void> { await this.at(index, 'stop') }
  async syncAll (index: number): Promise<void> { await this.at(index, 'syncAll') }

  async restart (index: number): Promise<SimNodeInfo> {
    const info = await this.at<SimNodeInfo>(index, 'restart')
    this.infos[index] = info
    return info
  }

  async counters (): Promise<NodeCounters[]> {
    const perChild = await Promise.all(this.children.map(async (child) => await child.call<NodeCounters[]>('counters')))
    return this.infos.map((_, i) => perChild[i % this.children.length]?.[Math.floor(i / this.children.length)] as NodeCounters)
  }

  async close (): Promise<void> {
    await Promise.allSettled(this.children.map(async (child) => { await child.call('close') }))
    for (const child of this.children) if (child.process.exitCode === null) child.process.kill()
  }

  private async at<T = unknown> (index: number, method: string, ...args: unknown[]): Promise<T> {
    const child = this.children[index % this.children.length] as Child
    return await child.call<T>(method, Math.floor(index / this.children.length), ...args)
  }
}
