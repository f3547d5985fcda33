import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { streamSeed, type LinkConditions } from 'isnad/engine'
import { meshesConnected, type NodeMesh } from './mesh.js'
import { nodeAt, type NodeCounters, type NodePool, type SimNodeInfo } from './pool.js'
import { splitPortRange, type PortRange } from './port-range.js'

/*
 * The pool of nodes spread over children (child-host.ts), each a LocalPool of real daemons on
 * 127.0.0.1, so nodes no longer share one JavaScript thread. Node i lives in child i mod N. The
 * children are child processes (`isnad sim run --processes N`) or worker threads of this process
 * (`--threads N`): one process, one event loop per thread, so the nodes of one process can use more
 * than one core.
 */

export type ChildKind = 'processes' | 'threads'

interface Pending { resolve: (value: unknown) => void, reject: (err: Error) => void }
type Reply = { id: number, result?: unknown, error?: string }

/** A child process or a worker thread, as far as the pool needs one. */
interface Channel {
  send: (message: unknown) => void
  onMessage: (listener: (message: Reply) => void) => void
  /** The child ended; `reason` says how (exit code, signal, or the error that ended a worker). */
  onExit: (listener: (reason: string) => void) => void
  exited: () => boolean
  kill: () => void
}

function spawn (kind: ChildKind, entry: string): Channel {
  if (kind === 'processes') {
    const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    return {
      send: (message) => { child.send(message as object) },
      onMessage: (listener) => { child.on('message', listener) },
      onExit: (listener) => { child.on('exit', (code, signal) => { listener(`exited (${code ?? signal ?? 'unknown'})`) }) },
      exited: () => child.exitCode !== null,
      kill: () => { child.kill() }
    }
  }
  const worker = new Worker(entry, { stdout: true }) // as a child process's: the nodes' stdout is not ours
  worker.stdout.resume()
  let exited = false
  let failure: Error | undefined
  worker.on('exit', () => { exited = true })
  worker.on('error', (err) => { failure = err }) // followed by 'exit', which fails what was waiting
  return {
    send: (message) => { worker.postMessage(message) },
    onMessage: (listener) => { worker.on('message', listener) },
    onExit: (listener) => { worker.on('exit', (code) => { listener(failure === undefined ? `exited (${code})` : `failed: ${failure.message}`) }) },
    exited: () => exited,
    kill: () => { void worker.terminate() }
  }
}

class Child {
  private next = 1
  private readonly pending = new Map<number, Pending>()

  constructor (readonly channel: Channel) {
    channel.onMessage((message) => {
      const waiting = this.pending.get(message.id)
      if (waiting === undefined) return
      this.pending.delete(message.id)
      if (message.error !== undefined) waiting.reject(new Error(message.error))
      else waiting.resolve(message.result)
    })
    channel.onExit((reason) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`simulation child ${reason}`))
      this.pending.clear()
    })
  }

  async call<T> (method: string, ...args: unknown[]): Promise<T> {
    const id = this.next++
    return await new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.channel.send({ id, method, args })
    })
  }
}

export class ChildPool implements NodePool {
  readonly controls = true

  /** Worker threads share this process's CPU counter, which the pool divides among all the nodes. */
  private readonly cpuStart = process.cpuUsage()

  private constructor (private readonly children: Child[], private readonly infos: SimNodeInfo[], private readonly kind: ChildKind) {}

  /**
   * `privateCheckers`: the nodes (global indices) whose daemons run private checks (LocalPoolOptions). @default every node
   * `portRange`: every node's ports from it, each child from its own slice. @default any free ports
   */
  static async start (count: number, processes: number, progress: (text: string) => void = () => {}, link?: LinkConditions, kind: ChildKind = 'processes', privateCheckers?: readonly number[], portRange?: PortRange): Promise<ChildPool> {
    const entry = fileURLToPath(new URL('./child-host.js', import.meta.url))
    const n = Math.max(1, Math.min(processes, count))
    // Refused before any child starts when the range cannot hold the nodes.
    const slices = portRange === undefined ? undefined : splitPortRange(portRange, n, count)
    const children = Array.from({ length: n }, () => new Child(spawn(kind, entry)))
    const sizes = children.map((_, c) => Math.floor(count / n) + (c < count % n ? 1 : 0))
    try {
      // Each child's nodes draw from their own streams of the seed (link-conditions.ts).
      const linkOf = (c: number): LinkConditions | null => link === undefined ? null : { ...link, seed: streamSeed(link.seed, -1 - c) }
      // Node i is child (i mod n)'s local node ⌊i / n⌋.
      const checkersOf = (c: number): number[] | null => privateCheckers === undefined ? null : privateCheckers.filter((i) => i % n === c).map((i) => Math.floor(i / n))
      const started = await Promise.all(children.map(async (child, c) => await child.call<SimNodeInfo[]>('start', sizes[c], linkOf(c), checkersOf(c), slices?.[c] ?? null)))
      progress(`${count} nodes started in ${n} ${kind === 'threads' ? 'worker threads' : 'processes'}`)
      const infos = Array.from({ length: count }, (_, i) => started[i % n]?.[Math.floor(i / n)] as SimNodeInfo)
      return new ChildPool(children, infos, kind)
    } catch (err) {
      for (const child of children) child.channel.kill()
      throw err
    }
  }

  get size (): number {
    return this.infos.length
  }

  info (index: number): SimNodeInfo {
    return nodeAt(this.infos, index)
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
    const counters = this.infos.map((_, i) => perChild[i % this.children.length]?.[Math.floor(i / this.children.length)] as NodeCounters)
    if (this.kind === 'processes') return counters
    const { user, system } = process.cpuUsage(this.cpuStart)
    return counters.map((c) => ({ ...c, cpuMs: (user + system) / 1000 / Math.max(1, counters.length) }))
  }

  async meshesReady (): Promise<boolean> {
    const perChild = await Promise.all(this.children.map(async (child) => await child.call<NodeMesh[]>('meshes')))
    return meshesConnected(perChild.flat())
  }

  async close (): Promise<void> {
    await Promise.allSettled(this.children.map(async (child) => { await child.call('close') }))
    for (const child of this.children) if (!child.channel.exited()) child.channel.kill()
  }

  private async at<T = unknown> (index: number, method: string, ...args: unknown[]): Promise<T> {
    const child = this.children[index % this.children.length] as Child
    return await child.call<T>(method, Math.floor(index / this.children.length), ...args)
  }
}
