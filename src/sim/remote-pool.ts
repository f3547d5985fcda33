import { createHttpOperations } from '../api/client.js'
import { nodeName, waitForNodeFiles } from './container-node.js'
import { type NodeCounters, type NodePool, type SimNodeInfo } from './pool.js'

/*
 * The docker runner's pool, as the driver container sees it: nodes it reaches only through their HTTP
 * APIs (node files in the shared volume). It cannot stop, restart or disconnect them, and it cannot
 * read their network counters: the driver records the scenario events it had to skip.
 */

export class RemotePool implements NodePool {
  readonly controls = false

  private constructor (private readonly infos: SimNodeInfo[]) {}

  static async open (nodesDir: string, count: number): Promise<RemotePool> {
    const names = Array.from({ length: count }, (_, i) => nodeName(i))
    const files = await waitForNodeFiles(nodesDir, names)
    return new RemotePool(names.map((n) => files.get(n) as SimNodeInfo))
  }

  get size (): number {
    return this.infos.length
  }

  info (index: number): SimNodeInfo {
    const info = this.infos[index]
    if (info === undefined) throw new RangeError(`no simulated node ${index}`)
    return info
  }

  async connectedPeers (index: number): Promise<string[]> {
    const info = this.info(index)
    const peers = await createHttpOperations({ url: info.url, token: info.token }).peers().catch(() => [])
    return peers.map((p) => p.id)
  }

  /** None: a container's counters are not reachable over its HTTP API. */
  async counters (): Promise<NodeCounters[]> {
    return []
  }

  async dial (): Promise<void> { throw new Error('the docker runner cannot dial for a node') }
  async hangUp (): Promise<void> { throw new Error('the docker runner cannot disconnect nodes') }
  async stop (): Promise<void> { throw new Error('the docker runner cannot stop nodes') }
  async restart (): Promise<SimNodeInfo> { throw new Error('the docker runner cannot restart nodes') }
  async syncAll (): Promise<void> {}
  async close (): Promise<void> {}
}
