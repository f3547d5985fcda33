import { encodeSignedRecord } from '../src/record/index.js'
import { createAgent, memoryRecord, signFast } from './fixtures.js'
import type { WorkerRequest } from './network-gossip-worker.js'
import type { MessageTrace, TraceReport } from './network-gossip-watch.js'
import { meshesReady, NodeThread, type NodeMesh } from './node-threads.js'
import { dialAll, randomTopology, sleep, waitFor } from './network-mesh.js'
import { createRandom, median, percentile } from './stats.js'

/*
 * Where figure 8a's late deliveries lose their time: the threaded run (same nodes, topology and
 * messages) with every node's gossipsub watched (network-gossip-watch.ts). For each delivery:
 * publish → first copy at the node (the hops before it), first copy → validated (this node's
 * validator), validated → stored; for the late ones (≥ 500 ms) the same split, and each thread's
 * event-loop stalls while the messages went out. A diagnostic, not a figure: the watching costs a
 * little CPU per RPC.
 *
 *   npm run build && node packages/node/dist/bench/network-gossip-trace.js [--nodes=100] [--messages=40] [--spacing=1000] [--threads=2]
 */

const arg = (name: string, fallback: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const NODES = arg('nodes', 100)
const MESSAGES = arg('messages', 40)
const SPACING_MS = arg('spacing', 1000)
const THREADS = arg('threads', 2)
const DIALS_PER_NODE = 4
const LATE_MS = 500
/** A whole ping cycle before publishing, as figure 8a idles. */
const IDLE_MS = 11_000
const DRAIN_MS = 5000

interface Split { arrival: number, validation: number, toHost: number, total: number }

function splitOf (trace: MessageTrace, sentAt: number): Split | undefined {
  const { firstCopyAt, validatedAt, acceptedAt } = trace
  if (firstCopyAt === undefined || validatedAt === undefined || acceptedAt === undefined) return undefined
  return { arrival: firstCopyAt - sentAt, validation: validatedAt - firstCopyAt, toHost: acceptedAt - validatedAt, total: acceptedAt - sentAt }
}

function summary (values: readonly number[]): { p50: number, p95: number, p99: number } {
  const at = (p: number): number => values.length === 0 ? 0 : Math.round(percentile([...values], p))
  return { p50: at(50), p95: at(95), p99: at(99) }
}

const random = createRandom(2)
const threads = Array.from({ length: THREADS }, () => new NodeThread<WorkerRequest>(new URL('./network-gossip-worker.js', import.meta.url)))
const threadOf = (n: number): NodeThread<WorkerRequest> => threads[n % THREADS] as NodeThread<WorkerRequest>
const local = (n: number): number => Math.floor(n / THREADS)
try {
  const started = await Promise.all(threads.map(async (thread, t) => await thread.request<string[]>({ op: 'start', count: Math.ceil((NODES - t) / THREADS), trace: true })))
  const addrs = Array.from({ length: NODES }, (_, n) => started[n % THREADS]?.[local(n)] as string)
  await dialAll(randomTopology(NODES, DIALS_PER_NODE, random), async (from, to) => { await threadOf(from).request({ op: 'dial', from: local(from), to: addrs[to] as string }) })
  await waitFor('gossipsub meshes', async () => {
    const byThread = await Promise.all(threads.map(async (thread) => await thread.request<NodeMesh[]>({ op: 'meshes' })))
    return meshesReady(Array.from({ length: NODES }, (_, n) => byThread[n % THREADS]?.[local(n)] as NodeMesh))
  }, 45_000, 100)
  await sleep(IDLE_MS)

  const publisher = Math.floor(NODES / 2)
  const author = createAgent(10, 2)
  const created = Date.now() - 1000
  const sent: Array<{ messageId: string, sentAt: number }> = []
  for (let k = 0; k < MESSAGES; k++) {
    const bytes = encodeSignedRecord(signFast(memoryRecord(random, { author, serial: k, createdMillis: created, tags: ['bench', 'gossip'] }), author).signed)
    sent.push(await threadOf(publisher).request({ op: 'publish', node: local(publisher), bytes }))
    await sleep(SPACING_MS)
  }
  await sleep(DRAIN_MS)
  const reports = await Promise.all(threads.map(async (thread) => await thread.request<TraceReport>({ op: 'trace' })))

  const receivers = reports.flatMap((report, t) => report.nodes.map((messages, i) => ({ node: i * THREADS + t, messages: new Map(messages) }))).filter((r) => r.node !== publisher)
  const splits: Split[] = []
  const lateMessages = new Set<number>()
  let copies = 0
  let ihaves = 0
  sent.forEach(({ messageId, sentAt }, k) => {
    for (const { messages } of receivers) {
      const trace = messages.get(messageId)
      if (trace === undefined) continue
      copies += trace.copies
      ihaves += trace.ihaves
      const split = splitOf(trace, sentAt)
      if (split === undefined) continue
      splits.push(split)
      if (split.total >= LATE_MS) lateMessages.add(k)
    }
  })
  const late = splits.filter((s) => s.total >= LATE_MS)
  const parts = (of: readonly Split[]): Record<keyof Split, ReturnType<typeof summary>> => ({
    total: summary(of.map((s) => s.total)),
    arrival: summary(of.map((s) => s.arrival)),
    validation: summary(of.map((s) => s.validation)),
    toHost: summary(of.map((s) => s.toHost))
  })
  const from = sent[0]?.sentAt ?? 0
  process.stdout.write(`${JSON.stringify({
    nodes: NODES,
    messages: MESSAGES,
    expected: MESSAGES * (NODES - 1),
    delivered: splits.length,
    copiesPerDelivery: Math.round(100 * copies / Math.max(1, splits.length)) / 100,
    ihavesPerDelivery: Math.round(100 * ihaves / Math.max(1, splits.length)) / 100,
    all: parts(splits),
    late: { deliveries: late.length, share: Math.round(1000 * late.length / Math.max(1, splits.length)) / 1000, messages: [...lateMessages], ...parts(late), medianShareBeforeFirstCopy: Math.round(100 * median(late.map((s) => s.arrival / s.total))) / 100 },
    stalls: reports.map((r) => {
      const during = r.stalls.filter(([at]) => at >= from)
      return { count: during.length, totalMs: Math.round(during.reduce((sum, [, ms]) => sum + ms, 0)), maxMs: Math.round(Math.max(0, ...during.map(([, ms]) => ms))) }
    })
  })}\n`)
} finally {
  await Promise.allSettled(threads.map(async (thread) => { await thread.request({ op: 'stop' }) }))
  await Promise.allSettled(threads.map(async (thread) => { await thread.terminate() }))
}
