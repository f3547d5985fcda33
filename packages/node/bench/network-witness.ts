import { performance } from 'node:perf_hooks'
import { createHttpOperations, type HttpOperations } from '../src/api-access/client.js'
import { readApiToken } from '../src/api-access/index.js'
import { startDaemon, type Daemon } from '../src/daemon/index.js'
import { TOPICS } from '../src/net/index.js'
import { initHome } from '../src/node/index.js'
import { nodePaths } from '../src/home/index.js'
import { createAgent, createTempDir } from './fixtures.js'
import { openTempNode } from './ingest.js'
import { AttestationStream } from './network-events.js'
import { dialAll, randomTopology, waitFor, waitForMeshes } from './network-mesh.js'
import type { StartedDaemon, WitnessWorkerRequest } from './network-witness-worker.js'
import { meshesReady, NodeThread, type NodeMesh } from './node-threads.js'
import { createRandom, shuffle } from './stats.js'

/*
 * Witness round trip (benchmark 8): `nodes` real daemons (startDaemon: LocalNode on
 * LevelDB with its ledger, the network, the HTTP API) in this process on 127.0.0.1, each in a
 * fresh home. Every daemon auto-confirms requests from A's agent (the auto-answer policy), so no
 * person is in the loop: the time is network, verification, journaling and storage. The clock
 * starts when A is asked (HTTP) to request 3 witnesses and stops when A's event stream reports the
 * third attestation. Baseline, interleaved request by request: one remember + one attest on a
 * LocalNode in this process (sign, verify, journal, store, score), no network.
 */

export interface WitnessRunOptions {
  nodes: number
  /** Worker threads the daemons are spread over; 0: all on this thread. @default 0 */
  threads?: number
  witnesses: number
  requests: number
  dialsPerNode: number
  seed: number
  progress: (text: string) => void
}

export interface WitnessRunResult {
  /** Request → k-th attestation reported by A's event stream, ms, one per request. */
  roundTrips: number[]
  /** Process CPU (all threads, all daemons) during each round trip, ms. */
  roundTripCpuMs: number[]
  /** Request → first attestation, ms. */
  firstAttestations: number[]
  /** How long A's HTTP API took to sign, store and answer the request, ms. */
  requestCalls: number[]
  /** One remember + one attest on a local node, ms, one per request. */
  baseline: number[]
  setupMs: number
  meshMs: number
}

interface Peer {
  daemon: Daemon
  ops: HttpOperations
  token: string
  agent: string
  remove: () => Promise<void>
}

/** A daemon as the measurement drives it: over its HTTP API, wherever it runs. */
interface PeerHandle {
  ops: HttpOperations
  token: string
  agent: string
  url: string
}

/** A network of daemons with meshes formed. */
interface StartedNetwork {
  peers: PeerHandle[]
  meshMs: number
  stop: () => Promise<void>
}

const TOPICS_MEASURED = [TOPICS.memories, TOPICS.witnessRequests, TOPICS.attestations]

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
/** Heartbeats (ledger event + checkpoint) stay out of the measurement. */
const HEARTBEAT_MS = 3_600_000
const ROUND_TRIP_TIMEOUT_MS = 15_000
const WARMUPS = 1

async function startPeers (count: number): Promise<Peer[]> {
  const dirs = await Promise.all(Array.from({ length: count }, async (_, i) => await createTempDir(`witness-${i}`)))
  const agents = await Promise.all(dirs.map(async (dir) => (await initHome(dir.path)).defaultKey.did))
  const requester = agents[0] as string
  const peers: Peer[] = []
  try {
    for (let i = 0; i < count; i++) {
      const dir = dirs[i] as { path: string, remove: () => Promise<void> }
      const daemon = await startDaemon({ home: dir.path, listen: LOOPBACK, heartbeatMs: HEARTBEAT_MS, autoConfirmFrom: [requester] })
      const token = await readApiToken(nodePaths(dir.path).data)
      peers.push({ daemon, ops: createHttpOperations({ url: daemon.url, token }), token, agent: agents[i] as string, remove: dir.remove })
    }
  } catch (err) {
    await stopPeers(peers)
    await Promise.all(dirs.slice(peers.length).map(async (dir) => { await dir.remove() }))
    throw err
  }
  return peers
}

async function stopPeers (peers: readonly Peer[]): Promise<void> {
  await Promise.allSettled(peers.map(async (peer) => {
    try {
      await peer.daemon.stop()
    } finally {
      await peer.remove()
    }
  }))
}

/** Waits until every peer's node stores `memory` (so its gossip is over before the clock starts). */
async function waitForMemoryEverywhere (peers: readonly PeerHandle[], memory: string): Promise<void> {
  const missing = new Set(peers)
  await waitFor(`memory ${memory} on every daemon`, async () => {
    for (const peer of [...missing]) {
      if (await peer.ops.call('show', { id: memory }).then(() => true, () => false)) missing.delete(peer)
    }
    return missing.size === 0
  }, 15_000, 10)
}

/** The daemons on this thread, dialled and meshed. */
async function startHere (options: WitnessRunOptions, random: () => number): Promise<StartedNetwork> {
  const peers = await startPeers(options.nodes)
  try {
    const edges = randomTopology(options.nodes, options.dialsPerNode, random)
    await dialAll(edges, async (from, to) => {
      const target = (peers[to] as Peer).daemon
      await (peers[from] as Peer).daemon.network.dial(target.multiaddrs()[0] ?? target.network.peerId)
    })
    options.progress(`${options.nodes} daemons up, ${edges.length} connections; waiting for gossipsub meshes`)
    const meshMs = await waitForMeshes(peers.map((p) => p.daemon.network), TOPICS_MEASURED, 45_000)
    return { peers: peers.map((p) => ({ ops: p.ops, token: p.token, agent: p.agent, url: p.daemon.url })), meshMs, stop: async () => { await stopPeers(peers) } }
  } catch (err) {
    await stopPeers(peers)
    throw err
  }
}

/**
 * The daemons spread round-robin over worker threads (network-witness-worker.ts), as a deployment
 * runs each daemon on its own thread; homes are made here, the daemons driven over HTTP.
 */
async function startThreaded (options: WitnessRunOptions, threadCount: number, random: () => number): Promise<StartedNetwork> {
  const dirs = await Promise.all(Array.from({ length: options.nodes }, async (_, i) => await createTempDir(`witness-${i}`)))
  const agents = await Promise.all(dirs.map(async (dir) => (await initHome(dir.path)).defaultKey.did))
  const threads = Array.from({ length: threadCount }, () => new NodeThread<WitnessWorkerRequest>(new URL('./network-witness-worker.js', import.meta.url)))
  const threadOf = (n: number): NodeThread<WitnessWorkerRequest> => threads[n % threads.length] as NodeThread<WitnessWorkerRequest>
  const local = (n: number): number => Math.floor(n / threads.length)
  const stop = async (): Promise<void> => {
    await Promise.allSettled(threads.map(async (thread) => { await thread.request({ op: 'stop' }) }))
    await Promise.allSettled(threads.map(async (thread) => { await thread.terminate() }))
    await Promise.allSettled(dirs.map(async (dir) => { await dir.remove() }))
  }
  try {
    const started = await Promise.all(threads.map(async (thread, t) => await thread.request<StartedDaemon[]>({
      op: 'start', homes: dirs.filter((_, n) => n % threads.length === t).map((d) => d.path), requester: agents[0] as string, heartbeatMs: HEARTBEAT_MS
    })))
    const daemons = Array.from({ length: options.nodes }, (_, n) => started[n % threads.length]?.[local(n)] as StartedDaemon)
    const edges = randomTopology(options.nodes, options.dialsPerNode, random)
    await dialAll(edges, async (from, to) => { await threadOf(from).request({ op: 'dial', from: local(from), to: (daemons[to] as StartedDaemon).addr }) })
    options.progress(`${options.nodes} daemons up in ${threadCount} worker threads, ${edges.length} connections; waiting for gossipsub meshes`)
    const meshStart = performance.now()
    await waitFor('gossipsub meshes', async () => {
      const byThread = await Promise.all(threads.map(async (thread) => await thread.request<NodeMesh[]>({ op: 'meshes' })))
      return meshesReady(Array.from({ length: options.nodes }, (_, n) => byThread[n % threads.length]?.[local(n)] as NodeMesh))
    }, 45_000, 100)
    const meshMs = performance.now() - meshStart
    const peers = await Promise.all(daemons.map(async ({ url }, n) => {
      const token = await readApiToken(nodePaths((dirs[n] as { path: string }).path).data)
      return { ops: createHttpOperations({ url, token }), token, agent: agents[n] as string, url }
    }))
    return { peers, meshMs, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

export async function runWitness (options: WitnessRunOptions): Promise<WitnessRunResult> {
  const random = createRandom(options.seed)
  const setupStart = performance.now()
  const threads = options.threads ?? 0
  const network = threads > 0 ? await startThreaded(options, threads, random) : await startHere(options, random)
  let local: Awaited<ReturnType<typeof openTempNode>> | undefined
  let stream: AttestationStream | undefined
  try {
    local = await openTempNode('witness-baseline')
    const { peers, meshMs } = network
    const setupMs = performance.now() - setupStart

    const [a, ...others] = peers as [PeerHandle, ...PeerHandle[]]
    stream = await AttestationStream.open(a.url, a.token)
    const author = createAgent(30, options.seed)
    const witness = createAgent(31, options.seed)
    const result: WitnessRunResult = { roundTrips: [], roundTripCpuMs: [], firstAttestations: [], requestCalls: [], baseline: [], setupMs, meshMs }
    options.progress(`${WARMUPS + options.requests} witness requests from A to ${options.witnesses} of ${others.length} daemons (mesh ready in ${(meshMs / 1000).toFixed(1)} s)`)
    for (let k = 0; k < WARMUPS + options.requests; k++) {
      const baseStart = performance.now()
      const view = await local.node.remember({ type: 'observation', summary: `local round ${k}`, tags: ['bench'] }, author)
      await local.node.attest({ memory: view.id, verdict: 'confirm' }, witness)
      const baseMs = performance.now() - baseStart

      const memory = await a.ops.call('remember', { type: 'observation', summary: `witness round trip ${k}`, tags: ['bench'] })
      await waitForMemoryEverywhere(others, memory.id)
      const chosen = shuffle(random, [...others]).slice(0, options.witnesses)
      const arrivals = stream.waitFor(memory.id, options.witnesses, ROUND_TRIP_TIMEOUT_MS)
      const cpu = process.cpuUsage()
      const start = performance.now()
      await a.ops.call('requestWitnesses', { id: memory.id, to: chosen.map((p) => p.agent) })
      const requestMs = performance.now() - start
      const times = await arrivals
      const { user, system } = process.cpuUsage(cpu)
      const confirms = (await a.ops.call('explainTrust', { id: memory.id })).factors.confirm_count
      if (confirms !== options.witnesses) throw new Error(`A counts ${confirms} confirmations of ${memory.id}, ${options.witnesses} expected`)
      if (k < WARMUPS) continue
      result.baseline.push(baseMs)
      result.requestCalls.push(requestMs)
      result.roundTrips.push(Math.max(...times) - start)
      result.roundTripCpuMs.push((user + system) / 1000)
      result.firstAttestations.push(Math.min(...times) - start)
    }
    return result
  } finally {
    stream?.close()
    await local?.dispose()
    await network.stop()
  }
}
