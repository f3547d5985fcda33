import { performance } from 'node:perf_hooks'
import { encodeSignedRecord } from '../src/record/index.js'
import { createAgent, memoryRecord, signFast } from './fixtures.js'
import type { GossipRunOptions, GossipRunResult } from './network-gossip.js'
import type { WorkerReport, WorkerRequest } from './network-gossip-worker.js'
import { meshesReady, NodeThread, type NodeMesh } from './node-threads.js'
import { dialAll, randomTopology, sleep, waitFor } from './network-mesh.js'
import { createRandom } from './stats.js'

/*
 * The gossip benchmark with the same nodes, topology and messages as runGossip, but the nodes spread
 * round-robin over `threads` worker threads of this process: a deployment runs each node on its own
 * JavaScript thread, so here node n's work no longer waits for the other 99 nodes' framing and
 * pings on one thread — only for the threads' share of the machine's cores. Latency is from the
 * publish call to the receiving host's `accept`, on absolute clocks (performance.timeOrigin + now).
 */

export interface ThreadedGossipOptions extends GossipRunOptions {
  threads: number
}

const DRAIN_TIMEOUT_MS = 15_000
const MESH_TIMEOUT_MS = 45_000
const SETTLE_MS = 1000

export async function runGossipThreaded (options: ThreadedGossipOptions): Promise<GossipRunResult> {
  const random = createRandom(options.seed)
  const setupStart = performance.now()
  const threads = Array.from({ length: options.threads }, () => new NodeThread<WorkerRequest>(new URL('./network-gossip-worker.js', import.meta.url)))
  // Node n lives in thread n mod threads, at position ⌊n / threads⌋ there.
  const threadOf = (n: number): NodeThread<WorkerRequest> => threads[n % threads.length] as NodeThread<WorkerRequest>
  const local = (n: number): number => Math.floor(n / threads.length)
  try {
    const counts = threads.map((_, t) => Math.ceil((options.nodes - t) / threads.length))
    const addrsByThread = await Promise.all(threads.map(async (thread, t) => await thread.request<string[]>({ op: 'start', count: counts[t] as number })))
    const addrs = Array.from({ length: options.nodes }, (_, n) => addrsByThread[n % threads.length]?.[local(n)] as string)
    const edges = randomTopology(options.nodes, options.dialsPerNode, random)
    await dialAll(edges, async (from, to) => { await threadOf(from).request({ op: 'dial', from: local(from), to: addrs[to] as string }) })
    options.progress(`${options.nodes} nodes up in ${threads.length} worker threads, ${edges.length} connections; waiting for gossipsub meshes`)
    const allMeshes = async (): Promise<NodeMesh[]> => {
      const byThread = await Promise.all(threads.map(async (thread) => await thread.request<NodeMesh[]>({ op: 'meshes' })))
      return Array.from({ length: options.nodes }, (_, n) => byThread[n % threads.length]?.[local(n)] as NodeMesh)
    }
    const meshStart = performance.now()
    await waitFor('gossipsub meshes', async () => meshesReady(await allMeshes()), MESH_TIMEOUT_MS, 100)
    const meshMs = performance.now() - meshStart
    const setupMs = performance.now() - setupStart
    const degree = (await allMeshes()).reduce((sum, m) => sum + m.peers, 0) / options.nodes

    await sleep(SETTLE_MS)
    const idleStart = process.cpuUsage()
    await sleep(options.idleSampleMs)
    const idle = process.cpuUsage(idleStart)
    const idleCpuMsPerSecond = (idle.user + idle.system) / options.idleSampleMs

    const publisher = Math.floor(options.nodes / 2)
    const author = createAgent(10, options.seed)
    const created = Date.now() - 1000
    const bytes = Array.from({ length: options.messages }, (_, k) =>
      encodeSignedRecord(signFast(memoryRecord(random, { author, serial: k, createdMillis: created, tags: ['bench', 'gossip'] }), author).signed))
    const collect = async (): Promise<WorkerReport[]> => await Promise.all(threads.map(async (thread) => await thread.request<WorkerReport>({ op: 'collect' })))
    const expected = options.messages * (options.nodes - 1)
    const delivered = async (): Promise<number> => (await collect()).reduce((sum, r) => sum + r.arrivals.reduce((s, [, at]) => s + at.length, 0), 0)

    options.progress(`publishing ${options.messages} memories, ${options.spacingMs} ms apart (mesh ready in ${(meshMs / 1000).toFixed(1)} s)`)
    const before = await collect()
    const cpuStart = process.cpuUsage()
    const start = performance.now()
    const sent: Array<{ id: string, sentAt: number }> = []
    for (const message of bytes) {
      sent.push(await threadOf(publisher).request<{ id: string, sentAt: number }>({ op: 'publish', node: local(publisher), bytes: message }))
      await sleep(options.spacingMs)
    }
    await waitFor('every delivery', async () => await delivered() === expected, DRAIN_TIMEOUT_MS, 50).catch(() => {})
    const elapsedMs = performance.now() - start
    const cpu = process.cpuUsage(cpuStart)
    const after = await collect()

    const arrivals = new Map<string, number[]>()
    for (const report of after) for (const [id, at] of report.arrivals) arrivals.set(id, [...(arrivals.get(id) ?? []), ...at])
    const latenciesByMessage = sent.map(({ id, sentAt }) => (arrivals.get(id) ?? []).map((at) => at - sentAt))
    const threadCpu = after.map((r, t) => r.threadCpuMs - (before[t]?.threadCpuMs ?? 0))
    return {
      nodes: options.nodes,
      messages: options.messages,
      expected,
      delivered: latenciesByMessage.reduce((sum, l) => sum + l.length, 0),
      latencies: latenciesByMessage.flat(),
      latenciesByMessage,
      verifications: after.reduce((sum, r) => sum + r.verifications, 0),
      maxVerificationsPerRecord: Math.max(...after.map((r) => r.maxVerificationsPerRecord)),
      duplicates: after.reduce((sum, r) => sum + r.duplicates, 0),
      cpuMs: (cpu.user + cpu.system) / 1000,
      // The busiest node thread: what one JavaScript thread had to do.
      mainThreadCpuMs: Math.max(...threadCpu),
      elapsedMs,
      idleCpuMsPerSecond,
      setupMs,
      meshMs,
      degree
    }
  } finally {
    await Promise.allSettled(threads.map(async (thread) => { await thread.request({ op: 'stop' }) }))
    await Promise.allSettled(threads.map(async (thread) => { await thread.terminate() }))
  }
}
