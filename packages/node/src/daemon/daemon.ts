import { join } from 'node:path'
import { findDaemon, loadOrCreateApiToken, removeDaemonFile, writeDaemonFile } from '../api-access/index.js'
import { createApiEventHub, type CreateKeyInput, type FollowInput, type Follows, type NetworkStats, type NodeStatus, type PeerInfo, type PeerSync } from '../operations/index.js'
import { LocalOperations } from '../operations/local/index.js'
import { IsnadError } from '../errors/index.js'
import { createKeystore, type Keystore } from '../keystore/index.js'
import { silentLogger, type Logger } from '../log/index.js'
import { ContentRouter, createNetwork, gossipHealthOf, OFFLINE_HEALTH, type ConnectionMonitorSettings, type GossipHealth, type LinkConditions, type Network } from '../net/index.js'
import { DrawnInbox, LocalNode, type NodeAnchorOptions } from '../node/index.js'
import { PEER_KEY_FILE, nodeKeysPath, nodePaths } from '../home/index.js'
import type { MemoryView } from '../schema/index.js'
import { startApiOnKeptPort } from './api-port.js'
import { routedBlockFetcher, showHeldOrRouted, startContentAnnouncer } from './content-routing.js'
import { startContentBacklog } from './content-backlog.js'
import { parseBootstrapAddresses, watchBootstrapPeers } from './bootstrap-peers.js'
import { DAEMON_ANCHOR_DIR_FIX, DEFAULT_DAEMON_LISTEN, DEFAULT_MAX_SHARDS, DHT_DIRECTORY, HEARTBEAT_INTERVAL_MS } from './constants.js'
import { startShardService, type ShardService } from './home-shards.js'
import type { KeyInfo } from '../keystore/index.js'
import { explainListenError } from './listen-errors.js'
import { logPeerEvents } from './peer-log.js'
import { startKeyLogPublisher } from './key-log-publisher.js'
import { connectPeer, disconnectPeer, networkStatsOf, syncPeers } from './peer-actions.js'
import { createNodeHost } from '../node/index.js'
import { startPeriodic } from './periodic.js'
import { startEvidenceFetching } from './evidence-fetch.js'
import { hostedAgentsOf, startPublisher } from './publisher.js'
import { PrivateCheckLog, startPrivateChecks } from './private-checks.js'
import { WitnessBudget, type WitnessBudgetLimits } from './witness-budget.js'
import { createWitnessCounters, type WitnessCounters } from './witness-counters.js'
import { startWitnessDraw } from './witness-draw.js'
import { WITNESS_DRAW } from '../draw/index.js'

export interface DaemonOptions {
  home: string
  /** libp2p listen multiaddrs. @default DEFAULT_DAEMON_LISTEN */
  listen?: string[]
  announce?: string[]
  /** Bootstrap peers (multiaddrs with /p2p/<peer id>). */
  bootstrap?: string[]
  /** Discover peers on the local network. @default false */
  mdns?: boolean
  /**
   * The HTTP API's port on 127.0.0.1, kept in `.memory/api.port` for the next start; 0: any free
   * port for this run only. @default the kept port, else PREFERRED_API_PORT when free, else any
   */
  apiPort?: number
  /** Names the API answers to besides 127.0.0.1, localhost and [::1] (`--api-host-name`; DNS rebinding). */
  apiHostNames?: string[]
  /**
   * The API is reached only through a relay that passes on the clients' Host (the simulator's node
   * supervisor, src/sim/pools/node-supervisor.ts): any Host is answered. The token and the Origin check stay.
   * @default false
   */
  apiBehindRelay?: boolean
  /** @default HEARTBEAT_INTERVAL_MS */
  heartbeatMs?: number
  /**
   * Auto-answer policy (off by default): confirm witness requests from these requesters, and the
   * memories of these authors the witness draw chose local agents for.
   */
  autoConfirmFrom?: string[]
  /**
   * Private checks (protocols/witness-draw-v1.md): when no drawn answer this node accepts arrived
   * `delayMs` after a memory, ask one reputable witness with probability privateCheckProbability(N̂).
   * On by default; `false` turns them off (`isnad start --no-private-checks`). `random`: the node's
   * randomness in [0, 1) (tests). @default {} (on, WITNESS_DRAW.privateCheckDelayMs)
   */
  privateChecks?: { delayMs?: number, random?: () => number } | false
  /** How often the node fetches the evidence its reputation lacks (docs/trust.md §3a). @default EVIDENCE_FETCH.intervalMs */
  evidenceIntervalMs?: number
  /**
   * The witness budget (docs/limits.md): memories of one author per hour and memories in all per
   * minute this node's witnesses take on (drawn, or asked by strangers). @default WITNESS_DRAW's
   */
  witnessBudget?: Partial<WitnessBudgetLimits>
  /**
   * How anchors are checked: local git repositories, blockchain verifier plug-ins, limits, and the
   * hosts and ranges url anchors from peers may reach although not public (`urlAllow`, anchors-v1 §4, §9).
   * `fileDirs`: the only directories file anchors are read from for API clients (anchors-v1 §2.1,
   * `--anchor-dir`); a daemon defaults to none, unlike the CLI without a daemon.
   */
  anchors?: NodeAnchorOptions
  /** The daemon's log (src/log: JSON lines on stderr in the CLI). @default silentLogger */
  logger?: Logger
  /** Simulated latency and loss on the node's libp2p connections (simulations only, docs/simulation.md). */
  linkConditions?: LinkConditions
  /**
   * Content routing by CID through the DHT (protocols/content-routing-v1.md). Off only where many
   * daemons share one process for a simulation, which measures gossip, sync and trust, not lookups
   * (its results say so). @default true
   */
  contentRouting?: boolean
  /** Liveness pings of every connection (src/net/limits/connection-pings.ts). @default a ping every 10 s; a failed ping closes the connection */
  connectionMonitor?: ConnectionMonitorSettings
  /**
   * A fixed shard count (protocols/gossip-v1.md "Shards"; `--shard-count`): a power of two from 1 to
   * 4096. For tests and operators: a real network's count follows its size (shardCountFor(N̂)), and a
   * network of a dozen nodes has count 1. @default from the node's population estimate
   */
  shardCount?: number
  /** The most shards the node subscribes to (`--max-shards`). @default DEFAULT_MAX_SHARDS */
  maxShards?: number
}

export interface Daemon {
  url: string
  peerId: string
  multiaddrs: () => string[]
  network: Network
  /** Content routing by CID (protocols/content-routing-v1.md): what it announced, lookups. */
  content: ContentRouter
  /** What the witness service did since the start (also in GET /v1/network/stats `witness`). */
  witness: Readonly<WitnessCounters>
  /** Graceful stop: API, network, then the node (instance.stopped, checkpoint). Idempotent. */
  stop: () => Promise<void>
}

/** NodeOperations of a running node: the local ones plus what needs the network. */
class DaemonOperations extends LocalOperations {
  network: Network | undefined
  witness: WitnessCounters | undefined
  shards: ShardService | undefined
  content: ContentRouter | undefined

  /** A follow changes the gossip subscriptions at once (protocols/gossip-v1.md "Shards"). */
  override async follow (input: FollowInput): Promise<Follows> {
    const result = await super.follow(input)
    if (this.shards === undefined) return result
    if (input.action !== 'list') await this.shards.refresh()
    // A new follow is caught up from each peer's log at once, from its start (sync-v1 §9).
    if (input.action === 'add') void this.network?.syncAll()
    return { ...result, gossip: this.shards.gossip() }
  }

  /** A new agent's shard becomes a home shard at once. */
  override async createKey (input: CreateKeyInput): Promise<KeyInfo> {
    const key = await super.createKey(input)
    await this.shards?.refresh()
    return key
  }

  /** A memory this node does not hold is looked up by its CID through the DHT (content-routing-v1 C7). */
  override async show (id: string): Promise<MemoryView> { return await showHeldOrRouted(id, async () => await super.show(id), this.content) }

  override async peers (): Promise<PeerInfo[]> {
    const libp2p = this.network?.libp2p
    if (libp2p === undefined) return []
    return libp2p.getConnections().map((c) => ({ id: c.remotePeer.toString(), addresses: [c.remoteAddr.toString()] }))
  }

  /** `isnad status` through the daemon: the home's status, and the network as it runs. */
  override async status (): Promise<NodeStatus> {
    const status = await super.status()
    const network = this.network
    if (network === undefined) return status
    return { ...status, network: { peer_id: network.peerId.toString(), addrs: network.multiaddrs().map(String), peers: network.libp2p.getPeers().length } }
  }

  /** The dashboard's peers and gossip health (GET /v1/network/health). */
  gossipHealth (): GossipHealth { return this.network === undefined ? OFFLINE_HEALTH : gossipHealthOf(this.network) }

  // The operator's control over connections (src/operations/peer-control.ts), in peer-control.ts.
  async connectPeer (address: string): Promise<string> { return await connectPeer(this.online(), address) }
  async disconnectPeer (peer: string): Promise<number> { return await disconnectPeer(this.online(), peer) }
  async syncPeers (peer?: string): Promise<PeerSync[]> { return await syncPeers(this.online(), peer) }
  async networkStats (): Promise<NetworkStats> {
    const stats = networkStatsOf(this.online())
    return this.witness === undefined ? stats : { ...stats, witness: structuredClone(this.witness) }
  }

  private online (): Network {
    if (this.network === undefined) throw new IsnadError('USAGE', 'the network is not running')
    return this.network
  }
}

/**
 * `isnad start` (docs/architecture.md): the node on the network. Owns the data directory's single-writer
 * lock; the CLI talks to it through the HTTP API it advertises in `.memory/daemon.json`. A failure
 * to start undoes what was started, so the caller's process can exit (or retry) cleanly.
 */
export async function startDaemon (options: DaemonOptions): Promise<Daemon> {
  const logger = options.logger ?? silentLogger
  const paths = nodePaths(options.home)
  const listen = options.listen ?? DEFAULT_DAEMON_LISTEN
  const bootstrap = parseBootstrapAddresses(options.bootstrap ?? []) // USAGE before anything starts
  await assertNoDaemon(paths.data, options.home)
  const keystore: Keystore = createKeystore({ directory: paths.keys })
  const hub = createApiEventHub()
  // Whoever holds the token must not make the daemon publish the user's files: none unless allowed.
  const anchors: NodeAnchorOptions = { fileDirsAllowedBy: DAEMON_ANCHOR_DIR_FIX, ...options.anchors, fileDirs: options.anchors?.fileDirs ?? [] }
  // The set shard count reaches the node's trust (W12) and a rebuild of an outdated index on open.
  const openNode = async (): Promise<LocalNode> => await LocalNode.open({ home: options.home, anchors, ...(options.shardCount === undefined ? {} : { shardCount: options.shardCount }) })
  let node = await openNode()
  let unsubscribe = (): void => {}
  const host = createNodeHost(() => node)
  let network: Network
  try {
    network = await createNetwork({
      host,
      peerKeyPath: join(nodeKeysPath(paths), PEER_KEY_FILE),
      listen,
      ...(options.announce === undefined ? {} : { announce: options.announce }),
      bootstrap: bootstrap.map((b) => b.address),
      syncAfterHome: true, // a first sync asks for the home shards, not the whole log (sync-v1 §9)
      mdns: options.mdns ?? false,
      keyring: () => node.keyring,
      dht: options.contentRouting === false ? false : { datastorePath: join(paths.data, DHT_DIRECTORY) },
      ...(options.linkConditions === undefined ? {} : { linkConditions: options.linkConditions }),
      ...(options.connectionMonitor === undefined ? {} : { connectionMonitor: options.connectionMonitor })
    })
  } catch (err) {
    await host.close()
    await node.close()
    throw await explainListenError(err, listen)
  }
  const stopPeerLog = logPeerEvents(network, logger.child({ component: 'net' }))
  const router = new ContentRouter(network)
  // The witness service's state outlives a reopened node (`isnad ledger reindex` through the API).
  const drawnInbox = new DrawnInbox()
  const budget = new WitnessBudget({ perAuthorPerHour: WITNESS_DRAW.perAuthorPerHour, perMinute: WITNESS_DRAW.perMinute, ...options.witnessBudget })
  const counters = createWitnessCounters()
  const privateCheckLog = new PrivateCheckLog()
  const privateChecks = options.privateChecks ?? {}
  const hostedAgents = hostedAgentsOf(keystore)
  const evidence = startEvidenceFetching({ network, logger: logger.child({ component: 'trust' }), ...(options.evidenceIntervalMs === undefined ? {} : { intervalMs: options.evidenceIntervalMs }) })
  const bind = (opened: LocalNode): LocalNode => {
    unsubscribe()
    const records = logger.child({ component: 'records' })
    const witnessLog = logger.child({ component: 'witness' })
    const autoConfirmFrom = options.autoConfirmFrom ?? []
    const population = async (): Promise<number> => await opened.populationEstimate()
    opened.useDrawnInbox(drawnInbox, () => network.home.count)
    if (privateChecks !== false) opened.trust.usePrivateChecks((memory) => privateCheckLog.stateOf(memory))
    evidence.attach(opened)
    const draw = startWitnessDraw({ node: opened, keystore, hub, autoConfirmFrom, hostedAgents, population, shardCount: () => network.home.count, inbox: drawnInbox, budget, counters, logger: witnessLog })
    const stopRecords = startPublisher({ node: opened, network, hub, keystore, autoConfirmFrom, logger: records, admitRequest: draw.admitRequest })
    const stopKeyLogs = startKeyLogPublisher({ keyring: opened.keyring, keystore, network, logger: records })
    const stopAnnouncer = startContentAnnouncer({ node: opened, router, logger: records, peer: network.peerId.toMultihash().bytes, population, shardCount: () => network.home.count })
    const stopPrivateChecks = privateChecks === false
      ? () => {}
      : startPrivateChecks({ node: opened, keystore, hostedAgents, population, shardCount: () => network.home.count, log: privateCheckLog, counters, logger: witnessLog, ...privateChecks })
    unsubscribe = () => { stopRecords(); stopKeyLogs(); stopAnnouncer(); draw.stop(); stopPrivateChecks() }
    // cid anchors: missing blocks are asked from peers, then from the DHT's providers (fetch-v1 §8, content-routing-v1 C6)
    opened.anchors.setBlockFetcher(routedBlockFetcher(network, router, opened.anchors.blocks))
    // gossip-v1 R10: memories gossip validation found missing are fetched through the network.
    opened.pipeline.fetchMissingWith(network)
    node = opened
    return opened
  }
  bind(node)
  const ops = new DaemonOperations({
    node,
    home: options.home,
    keystore,
    events: hub,
    reopen: async () => bind(await openNode())
  })
  ops.network = network
  ops.witness = counters
  const shards = startShardService({
    network,
    node: () => node,
    hostedAgents,
    ...(options.shardCount === undefined ? {} : { shardCount: options.shardCount }),
    maxShards: options.maxShards ?? DEFAULT_MAX_SHARDS,
    logger: logger.child({ component: 'net' })
  })
  ops.shards = shards
  ops.content = router
  const multiaddrs = (): string[] => network.multiaddrs().map((m) => m.toString())
  let api: Awaited<ReturnType<typeof startApiOnKeptPort>>
  try {
    await shards.refresh() // the home shards before the API takes a request
    const token = await loadOrCreateApiToken(paths.data)
    api = await startApiOnKeptPort(paths.data, options.apiPort, { node: ops, token, events: hub, log: logger, hostNames: options.apiHostNames ?? [], anyHost: options.apiBehindRelay === true })
    await writeDaemonFile(paths.data, { pid: process.pid, url: api.url, peer_id: network.peerId.toString(), addrs: multiaddrs(), started_at: node.now() })
  } catch (err) {
    evidence.stop()
    stopPeerLog()
    router.stop()
    await network.stop()
    unsubscribe()
    await host.close()
    await ops.close()
    throw err
  }
  const stopBootstrap = watchBootstrapPeers({ network, targets: bootstrap, logger: logger.child({ component: 'net' }) })
  // Records stored before content routing ran are announced once, in the background (content-routing-v1 C2a).
  const backlog = options.contentRouting === false
    ? undefined
    : startContentBacklog({ node: () => node, router, dataDir: paths.data, connected: () => network.libp2p.getPeers().length > 0, logger: logger.child({ component: 'records' }) })

  const stopHeartbeat = startPeriodic(() => {
    void (async () => {
      await node.journal.heartbeat({ peers: network.libp2p.getConnections().length })
      await shards.refresh() // N̂ grew: the count may have doubled (gossip-v1 "Shards")
      // The log grew since the last checkpoint: sign one and gossip it (transparency-v1, gossip-v1 §5).
      const latest = await node.journal.state.latestCheckpoint()
      const checkpoint = await node.journal.checkpoint()
      if (checkpoint !== null && checkpoint.record.size !== latest?.record.size) {
        const outcome = await network.publishCheckpoint(checkpoint)
        logger.debug('checkpoint published', { size: checkpoint.record.size, peers: outcome.recipients })
      }
    })().catch((err: unknown) => { logger.warn('heartbeat failed', { error: err }) })
  }, options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS)

  let stopping: Promise<void> | undefined
  const stop = async (): Promise<void> => {
    stopping ??= (async () => {
      stopHeartbeat()
      evidence.stop()
      stopBootstrap()
      await removeDaemonFile(paths.data)
      await api.close()
      stopPeerLog()
      await backlog?.stop().catch((err: unknown) => { logger.warn('the content backlog did not stop cleanly', { error: err }) })
      router.stop()
      await network.stop()
      unsubscribe()
      await host.close()
      await ops.close()
      logger.info('daemon stopped', { peer: network.peerId.toString() })
    })()
    await stopping
  }
  logger.info('daemon started', { peer: network.peerId.toString(), addrs: multiaddrs(), api: api.url, dashboard: `${api.url}/dashboard/`, pid: process.pid })
  return { url: api.url, peerId: network.peerId.toString(), multiaddrs, network, content: router, witness: counters, stop }
}

/**
 * STORE_LOCKED, naming the daemon, when one already serves this home: LevelDB would refuse the
 * second one too, but could only say that a lock is held, not by whom.
 */
async function assertNoDaemon (dataDir: string, home: string): Promise<void> {
  const running = await findDaemon(dataDir)
  if (running === null) return
  throw new IsnadError('STORE_LOCKED', `a daemon already runs for ${home}: pid ${running.pid}, API ${running.url} (since ${running.started_at}); stop it before starting another, or use another --home`, {
    details: { pid: running.pid, url: running.url }
  })
}
