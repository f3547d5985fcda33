import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readApiToken } from '../api/index.js'
import { startDaemon, type Daemon } from '../daemon/index.js'
import { TOPICS, type Network } from '../net/index.js'
import { initHome, nodePaths } from '../node/index.js'
import { meshesReady } from './mesh.js'
import { EMPTY_COUNTERS, addCounters, type NodeCounters, type NodePool, type SimNodeInfo } from './pool.js'

/*
 * The in-process runner's pool: `count` daemons (startDaemon, exactly what `isnad start` runs) in
 * this process, each in its own temporary home, libp2p on 127.0.0.1 only. The child processes of
 * `--processes N` each run one of these too (child-host.ts).
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
/** Daemons started at once: each start is a burst of LevelDB, key and socket work. */
const START_BATCH = 10

interface Slot {
  home: string
  agent: string
  daemon: Daemon | null
  info: SimNodeInfo
  /** Counters of the node's earlier runs (a restart starts a fresh network). */
  past: NodeCounters
}

export interface LocalPoolOptions {
  count: number
  progress?: (text: string) => void
  /** Where the homes go. @default os.tmpdir() */
  directory?: string
}

function countersOf (network: Network): NodeCounters {
  const { stats } = network
  return {
    gossipAccepted: stats.gossip.accepted,
    gossipIgnored: stats.gossip.ignored,
    gossipRejected: stats.gossip.rejected,
    verifications: stats.verifications,
    recordsByGossip: stats.accepted.gossip,
    recordsByFetch: stats.accepted.fetch,
    recordsBySync: stats.accepted.sync,
    cpuMs: 0
  }
}

async function launch (home: string, agent: string): Promise<{ daemon: Daemon, info: SimNodeInfo }> {
  const daemon = await startDaemon({ home, listen: LOOPBACK })
  const token = await readApiToken(nodePaths(home).data)
  return { daemon, info: { url: daemon.url, token, peerId: daemon.peerId, multiaddrs: daemon.multiaddrs(), agent } }
}

export class LocalPool implements NodePool {
  readonly controls = true
  private readonly cpuStart = process.cpuUsage()

  private constructor (private readonly root: string, private readonly slots: Slot[]) {}

  static async start (options: LocalPoolOptions): Promise<LocalPool> {
    const root = await mkdtemp(join(options.directory ?? tmpdir(), 'isnad-sim-'))
    const pool = new LocalPool(root, [])
    try {
      for (let at = 0; at < options.count; at += START_BATCH) {
        const batch = Array.from({ length: Math.min(START_BATCH, options.count - at) }, (_, k) => at + k)
        pool.slots.push(...await Promise.all(batch.map(async (i) => {
          const home = join(root, `node-${i}`)
          const agent = (await initHome(home)).defaultKey.did
          const { daemon, info } = await launch(home, agent)
          return { home, agent, daemon, info, past: EMPTY_COUNTERS }
        })))
        options.progress?.(`${pool.slots.length}/${options.count} nodes started`)
      }
    } catch (err) {
      await pool.close()
      throw err
    }
    return pool
  }

  get size (): number {
    return this.slots.length
  }

  info (index: number): SimNodeInfo {
    return this.slot(index).info
  }

  async dial (from: number, target: string): Promise<void> {
    await this.network(from).dial(target)
  }

  async hangUp (from: number, peerId: string): Promise<void> {
    const { libp2p } = this.network(from)
    // A connection that fails while closing is closed all the same: its error is not the caller's.
    await Promise.all(libp2p.getConnections().filter((c) => c.remotePeer.toString() === peerId).map(async (c) => { await c.close().catch(() => {}) }))
  }

  async connectedPeers (index: number): Promise<string[]> {
    const daemon = this.slot(index).daemon
    return daemon === null ? [] : daemon.network.libp2p.getPeers().map((p) => p.toString())
  }

  async stop (index: number): Promise<void> {
    const slot = this.slot(index)
    if (slot.daemon === null) return
    slot.past = addCounters(slot.past, countersOf(slot.daemon.network))
    const daemon = slot.daemon
    slot.daemon = null
    await daemon.stop()
  }

  async restart (index: number): Promise<SimNodeInfo> {
    const slot = this.slot(index)
    if (slot.daemon !== null) return slot.info
    const { daemon, info } = await launch(slot.home, slot.agent)
    slot.daemon = daemon
    slot.info = info
    return info
  }

  async syncAll (index: number): Promise<void> {
    const daemon = this.slot(index).daemon
    if (daemon !== null) await daemon.network.syncAll()
  }

  async counters (): Promise<NodeCounters[]> {
    const { user, system } = process.cpuUsage(this.cpuStart)
    const cpuShare = (user + system) / 1000 / Math.max(1, this.slots.length)
    return this.slots.map((slot) => {
      const current = slot.daemon === null ? EMPTY_COUNTERS : countersOf(slot.daemon.network)
      return { ...addCounters(slot.past, current), cpuMs: cpuShare }
    })
  }

  async meshesReady (): Promise<boolean> {
    const networks = this.slots.flatMap((slot) => slot.daemon === null ? [] : [slot.daemon.network])
    return meshesReady(networks, [TOPICS.memories, TOPICS.witnessRequests, TOPICS.attestations])
  }

  async close (): Promise<void> {
    await Promise.allSettled(this.slots.map(async (slot) => { await slot.daemon?.stop() }))
    this.slots.length = 0
    await rm(this.root, { recursive: true, force: true })
  }

  private slot (index: number): Slot {
    const slot = this.slots[index]
    if (slot === undefined) throw new RangeError(`no simulated node ${index}`)
    return slot
  }

  private network (index: number): Network {
    const daemon = this.slot(index).daemon
    if (daemon === null) throw new Error(`simulated node ${index} is stopped`)
    return daemon.network
  }
}
