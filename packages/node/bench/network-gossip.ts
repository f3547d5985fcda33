import { performance } from 'node:perf_hooks'
import { createNetwork, TOPICS, type Network } from '../src/net/index.js'
import { encodeSignedRecord, verifyRecordBytes } from '../src/record/index.js'
import { createAgent, memoryRecord, signFast } from './fixtures.js'
import { BenchHost, CountingVerifier } from './network-host.js'
import { dialAll, randomTopology, sleep, waitFor, waitForMeshes } from './network-mesh.js'
import { createRandom } from './stats.js'

/*
 * Gossip delivery (benchmark 8): `nodes` real js-libp2p 3 nodes in this process on
 * 127.0.0.1, each with an in-memory host and a counting verifier, in a sparse random topology. One
 * node publishes `messages` memories, `spacingMs` apart; every other node should store each one.
 * Latency is from the publish call to the receiving host's `accept` (one clock: one process).
 */

export interface GossipRunOptions {
  nodes: number
  messages: number
  spacingMs: number
  dialsPerNode: number
  /** Background CPU is sampled this long before publishing: a whole ping cycle (libp2p pings every connection every 10 s). */
  idleSampleMs: number
  seed: number
  progress: (text: string) => void
}

export interface GossipRunResult {
  nodes: number
  messages: number
  /** messages × (nodes − 1): one delivery per message per receiving node. */
  expected: number
  delivered: number
  /** Publish → accept, in ms, one per delivery. */
  latencies: number[]
  /** The same latencies grouped by message, in publication order. */
  latenciesByMessage: number[][]
  /** Signature checks by every node (the publisher's own check of its records included). */
  verifications: number
  maxVerificationsPerRecord: number
  /** Records handed to a host that already stored them. */
  duplicates: number
  /** Process CPU (all threads) and main-thread CPU from the first publish until the last delivery. */
  cpuMs: number
  mainThreadCpuMs: number
  elapsedMs: number
  /** Process CPU per second of wall clock while the network idled (heartbeats, pings), just before. */
  idleCpuMsPerSecond: number
  setupMs: number
  meshMs: number
  /** Average connections per node. */
  degree: number
}

interface GossipNode {
  network: Network
  host: BenchHost
  verifier: CountingVerifier
}

const START_BATCH = 10
/** How long a run waits after its last publish for stragglers before counting them lost. */
const DRAIN_TIMEOUT_MS = 15_000
const MESH_TIMEOUT_MS = 45_000
/** After the meshes form: identify, sync-on-connect and the first heartbeats finish. */
const SETTLE_MS = 1000

async function startGossipNode (): Promise<GossipNode> {
  const host = new BenchHost()
  const verifier = new CountingVerifier()
  // The daemon's settings (heartbeat 1 s, sync on connect) but TCP on loopback only.
  const network = await createNetwork({ host, verifier, listen: ['/ip4/127.0.0.1/tcp/0'], dht: false })
  return { network, host, verifier }
}

function cpuMsSince (start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000
}

export async function runGossip (options: GossipRunOptions): Promise<GossipRunResult> {
  const random = createRandom(options.seed)
  const setupStart = performance.now()
  const nodes: GossipNode[] = []
  try {
    for (let at = 0; at < options.nodes; at += START_BATCH) {
      const batch = Math.min(START_BATCH, options.nodes - at)
      nodes.push(...await Promise.all(Array.from({ length: batch }, startGossipNode)))
    }
    const edges = randomTopology(options.nodes, options.dialsPerNode, random)
    await dialAll(edges, async (from, to) => {
      const target = nodes[to] as GossipNode
      await (nodes[from] as GossipNode).network.dial(target.network.multiaddrs()[0] ?? target.network.peerId)
    })
    const networks = nodes.map((n) => n.network)
    options.progress(`${options.nodes} nodes up, ${edges.length} connection${edges.length === 1 ? '' : 's'}; waiting for gossipsub meshes`)
    const meshMs = await waitForMeshes(networks, [TOPICS.memories], MESH_TIMEOUT_MS)
    const setupMs = performance.now() - setupStart
    const degree = networks.reduce((sum, n) => sum + n.libp2p.getPeers().length, 0) / networks.length

    await sleep(SETTLE_MS)
    const idleStart = process.cpuUsage()
    await sleep(options.idleSampleMs)
    const idleCpuMsPerSecond = cpuMsSince(idleStart) * 1000 / options.idleSampleMs

    const publisher = nodes[Math.floor(options.nodes / 2)] as GossipNode
    const receivers = nodes.filter((n) => n !== publisher)
    const author = createAgent(10, options.seed)
    const created = Date.now() - 1000
    const bytes = Array.from({ length: options.messages }, (_, k) =>
      encodeSignedRecord(signFast(memoryRecord(random, { author, serial: k, createdMillis: created, tags: ['bench', 'gossip'] }), author).signed))
    const sent = new Map<string, number>()
    const expected = options.messages * receivers.length
    const delivered = (): number => receivers.reduce((sum, n) => sum + n.host.arrivals.size, 0)

    options.progress(`publishing ${options.messages} memories, ${options.spacingMs} ms apart (mesh ready in ${(meshMs / 1000).toFixed(1)} s)`)
    const cpuStart = process.cpuUsage()
    const threadStart = process.threadCpuUsage()
    const start = performance.now()
    for (const message of bytes) {
      // What a node does with its own memory: verify and store it (LocalNode.remember), then gossip it.
      const record = verifyRecordBytes(message, { verifier: publisher.verifier, now: Date.now() })
      publisher.host.putLocal(record)
      sent.set(record.id, performance.now())
      await publisher.network.publishRecord(record.signed.record.kind, message)
      await sleep(options.spacingMs)
    }
    await waitFor('every delivery', () => delivered() === expected, DRAIN_TIMEOUT_MS, 5).catch(() => {})
    const elapsedMs = performance.now() - start
    const cpuMs = cpuMsSince(cpuStart)
    const thread = process.threadCpuUsage(threadStart)

    const latenciesByMessage = [...sent].map(([id, t0]) => receivers.flatMap((node) => {
      const at = node.host.arrivals.get(id)
      return at === undefined ? [] : [at - t0]
    }))
    return {
      nodes: options.nodes,
      messages: options.messages,
      expected,
      delivered: delivered(),
      latencies: latenciesByMessage.flat(),
      latenciesByMessage,
      verifications: nodes.reduce((sum, n) => sum + n.verifier.total, 0),
      maxVerificationsPerRecord: Math.max(...nodes.map((n) => n.verifier.maxPerRecord)),
      duplicates: nodes.reduce((sum, n) => sum + n.host.duplicates, 0),
      cpuMs,
      mainThreadCpuMs: (thread.user + thread.system) / 1000,
      elapsedMs,
      idleCpuMsPerSecond,
      setupMs,
      meshMs,
      degree
    }
  } finally {
    await Promise.allSettled(nodes.map(async (n) => { await n.network.stop() }))
  }
}
