import { createHttpOperations, type HttpOperations } from 'isnad/engine'
import { retryingFetch } from './stale-socket.js'
import { nodeName } from './container-node.js'
import { discoverNodes, type DiscoverOptions } from './container-discovery.js'
import { orderNode } from './node-supervisor.js'
import { EMPTY_COUNTERS, addCounters, countersFrom, nodeAt, type NodeCounters, type NodePool, type SimNodeInfo } from './pool.js'

/*
 * The docker runner's pool, as the driver container sees it: nodes it reaches only over the network.
 * Connections go through each node's own HTTP API (POST /v1/peers/connect|disconnect|sync, GET
 * /v1/network/stats: what an operator would use), leaving and joining through the supervisor's
 * control channel around each daemon (node-supervisor.ts). So churn and partitions run here as they
 * do in the other runners.
 */

/** Per-request deadline: a node under load answers late rather than never. */
const REQUEST_TIMEOUT_MS = 120_000

interface RemoteNode {
  info: SimNodeInfo
  http: HttpOperations
  online: boolean
  /** Counters of the node's earlier runs (a restart starts its network afresh). */
  past: NodeCounters
  /** CPU of the node's process: it outlives the daemon's restarts, so the latest reading counts. */
  cpuMs: number
}

export class RemotePool implements NodePool {
  readonly controls: boolean
  private readonly nodes: RemoteNode[]

  constructor (infos: readonly SimNodeInfo[]) {
    this.nodes = infos.map((info) => ({
      info, http: createHttpOperations({ url: info.url, token: info.token, timeoutMs: REQUEST_TIMEOUT_MS, fetch: retryingFetch }), online: true, past: EMPTY_COUNTERS, cpuMs: 0
    }))
    // Nodes from an image without the control channel can still be driven, without churn or partitions.
    this.controls = infos.every((info) => info.control !== undefined)
  }

  /** The pool of a compose project or Swarm stack: its nodes found by service name (discovery.ts). */
  static async discover (count: number, options: DiscoverOptions): Promise<RemotePool> {
    return new RemotePool(await discoverNodes(Array.from({ length: count }, (_, i) => nodeName(i)), options))
  }

  get size (): number {
    return this.nodes.length
  }

  info (index: number): SimNodeInfo {
    return this.node(index).info
  }

  async dial (from: number, target: string): Promise<void> {
    await this.node(from).http.call('connectPeer', { address: target })
  }

  async hangUp (from: number, peerId: string): Promise<void> {
    await this.node(from).http.call('disconnectPeer', { peer: peerId })
  }

  async connectedPeers (index: number): Promise<string[]> {
    const node = this.node(index)
    if (!node.online) return []
    return [...new Set((await node.http.call('peers', {}).then((r) => r.peers, () => [])).map((p) => p.id))]
  }

  async stop (index: number): Promise<void> {
    const node = this.node(index)
    if (!node.online) return
    // The counters of this run are read before the daemon goes.
    const stats = await node.http.call('networkStats', {}).catch(() => null)
    if (stats !== null) {
      node.past = addCounters(node.past, countersFrom(stats))
      node.cpuMs = stats.cpu_ms
    }
    await orderNode(this.controlOf(node), node.info.token, 'leave')
    node.online = false
  }

  async restart (index: number): Promise<SimNodeInfo> {
    const node = this.node(index)
    await orderNode(this.controlOf(node), node.info.token, 'join')
    node.online = true
    return node.info // the supervisor keeps the API address and token across restarts
  }

  async syncAll (index: number): Promise<void> {
    const node = this.node(index)
    if (node.online) await node.http.call('syncPeers', {})
  }

  async counters (): Promise<NodeCounters[]> {
    return await Promise.all(this.nodes.map(async (node) => {
      const stats = node.online ? await node.http.call('networkStats', {}).catch(() => null) : null
      if (stats !== null) node.cpuMs = stats.cpu_ms
      return { ...addCounters(node.past, stats === null ? EMPTY_COUNTERS : countersFrom(stats)), cpuMs: node.cpuMs }
    }))
  }

  /** The nodes belong to their containers (or whoever started them): nothing to stop here. */
  async close (): Promise<void> {}

  private node (index: number): RemoteNode {
    return nodeAt(this.nodes, index)
  }

  private controlOf (node: RemoteNode): string {
    if (node.info.control === undefined) throw new Error(`node ${node.info.peerId} has no control channel`)
    return node.info.control
  }
}
