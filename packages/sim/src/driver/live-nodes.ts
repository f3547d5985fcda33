import { createHttpOperations, type HttpOperations } from 'isnad/engine'
import { retryingFetch, nodeAt, type NodePool, type SimNodeInfo } from '../pools/index.js'
import { openEventStream, type EventStream, type SimEvent } from './event-follower.js'

/*
 * The driver's handle on every node: its HTTP client (its agent signs as `info.agent`), its event stream,
 * and whether it is online. Events of every node go to one listener with the node's index.
 */

interface LiveNode {
  info: SimNodeInfo
  ops: HttpOperations
  stream: EventStream | null
  online: boolean
}

export type NodeEventListener = (node: number, event: SimEvent, at: number) => void

/** Per-request deadline: a node under load answers late rather than never. */
const REQUEST_TIMEOUT_MS = 120_000
/** Streams opened at once. */
const OPEN_BATCH = 20

export class LiveNodes {
  private readonly nodes: LiveNode[] = []

  constructor (private readonly pool: NodePool, private readonly listener: NodeEventListener) {}

  async open (): Promise<void> {
    for (let at = 0; at < this.pool.size; at += OPEN_BATCH) {
      const batch = Array.from({ length: Math.min(OPEN_BATCH, this.pool.size - at) }, (_, k) => at + k)
      const opened = await Promise.all(batch.map(async (i) => await this.connect(i, this.pool.info(i))))
      this.nodes.push(...opened)
    }
  }

  get size (): number {
    return this.nodes.length
  }

  node (index: number): LiveNode {
    return nodeAt(this.nodes, index)
  }

  isOnline (index: number): boolean {
    return this.node(index).online
  }

  online (): number[] {
    return this.nodes.flatMap((n, i) => n.online ? [i] : [])
  }

  agent (index: number): string {
    return this.node(index).info.agent
  }

  async leave (index: number): Promise<void> {
    const node = this.node(index)
    node.online = false
    node.stream?.close()
    node.stream = null
    await this.pool.stop(index)
  }

  async join (index: number): Promise<void> {
    const info = await this.pool.restart(index)
    this.nodes[index] = await this.connect(index, info)
  }

  close (): void {
    for (const node of this.nodes) node.stream?.close()
  }

  private async connect (index: number, info: SimNodeInfo): Promise<LiveNode> {
    const ops = createHttpOperations({ url: info.url, token: info.token, timeoutMs: REQUEST_TIMEOUT_MS, fetch: retryingFetch })
    const stream = await openEventStream(info.url, info.token, (event, at) => { this.listener(index, event, at) })
    return { info, ops, stream, online: true }
  }
}
