import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ConnectionMonitorSettings, type Daemon, initHome, isIsnadError, type LinkConditions, type Network, nodePaths, readApiToken, startDaemon, streamSeed, TOPICS } from 'isnad/engine'
import { PortAllocator, splitPortRange, type PortRange } from './port-range.js'
import { meshesConnected, meshesOf, type NodeMesh } from './mesh.js'
import { EMPTY_COUNTERS, addCounters, countersFrom, nodeAt, type NodeCounters, type NodePool, type SimNodeInfo } from './pool.js'

/*
 * The in-process runner's pool: `count` daemons (startDaemon, exactly what `isnad start` runs) in
 * this process, each in its own temporary home, libp2p on 127.0.0.1 only. The child processes of
 * `--processes N` and the worker threads of `--threads N` each run one of these too (child-host.ts).
 * The daemons run with two settings an operator may also give `isnad start` (below), because many
 * nodes share this process.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
/** The topics the scenario's traffic uses, whose meshes must be formed before it starts. */
const SIMULATED_TOPICS = [TOPICS.memories, TOPICS.witnessRequests, TOPICS.attestations]
/**
 * The daemons here share one event loop, so a ping's round trip measures that loop's lag, not a
 * link: with libp2p's defaults (a ping every 10 s on every connection, a connection closed when its
 * ping times out) a busy moment closed hundreds of links, whose redials, handshakes and syncs made
 * the next moment busier. A node that stops still closes its sockets, which TCP reports at once.
 */
const SIMULATED_CONNECTION_MONITOR: ConnectionMonitorSettings = { pingIntervalMs: 60_000, abortOnPingFailure: false }
/**
 * The time between a node's heartbeats, each of which signs and gossips a checkpoint when its log grew
 * (`isnad start --heartbeat`; 30 s by default). Every node receives every other node's checkpoint, so
 * N nodes in one process verify, store and relay N² checkpoints per heartbeat: about 3 ms of CPU per
 * delivery, at 100 nodes and 30 s a whole core. Checkpoints enter no metric of the simulation; the
 * nodes still sign, gossip, verify and keep them, every 5 minutes (the first at a random point of the
 * first interval, src/daemon/periodic.ts).
 */
const SIMULATED_HEARTBEAT_MS = 300_000
/** Daemons started at once: each start is a burst of LevelDB, key and socket work. */
const START_BATCH = 10

interface Slot {
  home: string
  agent: string
  daemon: Daemon | null
  info: SimNodeInfo
  /** Counters of the node's earlier runs (a restart starts a fresh network). */
  past: NodeCounters
  /** Whether its daemon runs private checks (kept across restarts). */
  privateChecks: boolean
  /** The ports it holds of the pool's range (none without one). */
  ports: number[]
}

export interface LocalPoolOptions {
  count: number
  progress?: (text: string) => void
  /** Where the homes go. @default os.tmpdir() */
  directory?: string
  /** The scenario's latency and loss on every libp2p connection (node i draws from stream i of the seed). */
  linkConditions?: LinkConditions
  /**
   * The nodes whose daemons run private checks (docs/simulation.md, "The witness draw"), as
   * `isnad start` does by default; the others run with `--no-private-checks`. The driver passes none
   * for a run without the checks (run.ts).
   * @default every node (the daemon's default)
   */
  privateCheckers?: readonly number[]
  /** Every node's libp2p and API ports from this range (`isnad sim run --port-range`). @default any free ports */
  portRange?: PortRange
}

function countersOf (network: Network): NodeCounters {
  return countersFrom(network.stats)
}

/** Tries of other ports when a port of the range was taken by another process between its try and the bind. */
const PORT_RETRIES = 5

/**
 * A daemon on two ports of `ports` (libp2p, API), else on any free ones; with its ports. A port
 * another process took meanwhile (ADDRESS_IN_USE) is given back and two others taken.
 */
async function launch (home: string, agent: string, privateChecks: boolean, link: LinkConditions | undefined, ports: PortAllocator | undefined): Promise<{ daemon: Daemon, info: SimNodeInfo, ports: number[] }> {
  for (let attempt = 0; ; attempt++) {
    const taken = ports === undefined ? [] : [await ports.take(), await ports.take()]
    try {
      return { ...await launchOn(home, agent, privateChecks, link, taken), ports: taken }
    } catch (err) {
      for (const port of taken) ports?.release(port)
      if (ports === undefined || attempt >= PORT_RETRIES || !isIsnadError(err, 'ADDRESS_IN_USE')) throw err
    }
  }
}

/**
 * Daemons sharing one process run without the content-routing DHT: with it, a 10-node run took over
 * twice as long (its lookups and provider records between every pair of nodes), and a scenario
 * measures gossip, sync and trust, which do not use it. Container runs keep it.
 */
const WITHOUT_CONTENT_ROUTING = 'the daemons ran without content routing by CID (the DHT of protocols/content-routing-v1.md), which a daemon runs by default: nothing in a scenario looks a record up by CID'

async function launchOn (home: string, agent: string, privateChecks: boolean, link: LinkConditions | undefined, [p2pPort, apiPort]: number[]): Promise<{ daemon: Daemon, info: SimNodeInfo }> {
  // Without a range, apiPort 0: any free port, not kept — many nodes share this host, and a node that
  // left must not find "its" port taken by another when it joins again (a kept port would make that
  // an error). With one, each start names its ports, so a node that joins again takes fresh ones.
  const listen = p2pPort === undefined ? LOOPBACK : [`/ip4/127.0.0.1/tcp/${p2pPort}`]
  const daemon = await startDaemon({ home, listen, apiPort: apiPort ?? 0, connectionMonitor: SIMULATED_CONNECTION_MONITOR, heartbeatMs: SIMULATED_HEARTBEAT_MS, contentRouting: false, ...(privateChecks ? {} : { privateChecks: false }), ...(link === undefined ? {} : { linkConditions: link }) })
  const token = await readApiToken(nodePaths(home).data)
  return { daemon, info: { url: daemon.url, token, peerId: daemon.peerId, multiaddrs: daemon.multiaddrs(), agent, notes: [WITHOUT_CONTENT_ROUTING] } }
}

export class LocalPool implements NodePool {
  readonly controls = true
  private readonly cpuStart = process.cpuUsage()

  private constructor (private readonly root: string, private readonly slots: Slot[], private readonly link?: LinkConditions, private readonly ports?: PortAllocator) {}

  static async start (options: LocalPoolOptions): Promise<LocalPool> {
    // Refused before anything starts when the range cannot hold the nodes.
    const ports = options.portRange === undefined ? undefined : new PortAllocator(splitPortRange(options.portRange, 1, options.count)[0] as PortRange)
    const root = await mkdtemp(join(options.directory ?? tmpdir(), 'isnad-sim-'))
    const pool = new LocalPool(root, [], options.linkConditions, ports)
    const checkers = options.privateCheckers === undefined ? undefined : new Set(options.privateCheckers)
    try {
      for (let at = 0; at < options.count; at += START_BATCH) {
        const batch = Array.from({ length: Math.min(START_BATCH, options.count - at) }, (_, k) => at + k)
        pool.slots.push(...await Promise.all(batch.map(async (i) => {
          const home = join(root, `node-${i}`)
          const agent = (await initHome(home)).defaultKey.did
          const privateChecks = checkers?.has(i) ?? true
          const { daemon, info, ports: held } = await launch(home, agent, privateChecks, pool.linkOf(i), ports)
          return { home, agent, daemon, info, past: EMPTY_COUNTERS, privateChecks, ports: held }
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
    for (const port of slot.ports) this.ports?.release(port)
    slot.ports = []
  }

  async restart (index: number): Promise<SimNodeInfo> {
    const slot = this.slot(index)
    if (slot.daemon !== null) return slot.info
    const { daemon, info, ports } = await launch(slot.home, slot.agent, slot.privateChecks, this.linkOf(index), this.ports)
    slot.daemon = daemon
    slot.info = info
    slot.ports = ports
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
    return meshesConnected(await this.meshes())
  }

  /** The gossipsub meshes of the running nodes (a ChildPool judges all its children's together). */
  async meshes (): Promise<NodeMesh[]> {
    const networks = this.slots.flatMap((slot) => slot.daemon === null ? [] : [slot.daemon.network])
    return meshesOf(networks, SIMULATED_TOPICS)
  }

  async close (): Promise<void> {
    await Promise.allSettled(this.slots.map(async (slot) => { await slot.daemon?.stop() }))
    this.slots.length = 0
    await rm(this.root, { recursive: true, force: true })
  }

  private linkOf (index: number): LinkConditions | undefined {
    return this.link === undefined ? undefined : { ...this.link, seed: streamSeed(this.link.seed, index) }
  }

  private slot (index: number): Slot {
    return nodeAt(this.slots, index)
  }

  private network (index: number): Network {
    const daemon = this.slot(index).daemon
    if (daemon === null) throw new Error(`simulated node ${index} is stopped`)
    return daemon.network
  }
}
