import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import { createNetwork, TOPICS, type Network } from '../src/net/index.js'
import { messageIdOf, messageIdToString } from '../src/net/gossip/index.js'
import { verifyRecordBytes } from '../src/record/index.js'
import { BenchHost, CountingVerifier } from './network-host.js'
import { watchGossip, watchStalls, type MessageTrace, type TraceReport } from './network-gossip-watch.js'
import type { NodeMesh } from './node-threads.js'

/*
 * One worker thread of the threaded gossip benchmark (network-gossip-threads.ts): it runs a share of
 * the nodes — the same light nodes as runGossip (real js-libp2p 3 on 127.0.0.1, in-memory host,
 * counting verifier) — and answers the coordinating thread's requests. Times are absolute
 * (performance.timeOrigin + performance.now()), so arrivals compare across threads.
 */

export type WorkerRequest =
  /** `trace`: every node's gossip watched (network-gossip-watch.ts), for the `trace` request. */
  | { op: 'start', count: number, trace?: boolean }
  | { op: 'dial', from: number, to: string }
  | { op: 'meshes' }
  | { op: 'publish', node: number, bytes: Uint8Array }
  | { op: 'collect' }
  | { op: 'trace' }
  | { op: 'stop' }

export interface WorkerReport {
  /** Per record id, the absolute time each of this worker's nodes accepted it. */
  arrivals: Array<[string, number[]]>
  verifications: number
  maxVerificationsPerRecord: number
  duplicates: number
  peers: number
  /** CPU of this thread since it started, ms. */
  threadCpuMs: number
}

interface Node {
  network: Network
  host: BenchHost
  verifier: CountingVerifier
  messages?: Map<string, MessageTrace>
}

const START_BATCH = 10
const nodes: Node[] = []
let stalls: Array<[number, number]> = []

function absolute (at: number): number {
  return performance.timeOrigin + at
}

async function startNode (trace: boolean): Promise<Node> {
  const host = new BenchHost()
  const verifier = new CountingVerifier()
  const network = await createNetwork({ host, verifier, listen: ['/ip4/127.0.0.1/tcp/0'], dht: false })
  return { network, host, verifier, ...(trace ? { messages: watchGossip(network, host) } : {}) }
}

function node (index: number): Node {
  const found = nodes[index]
  if (found === undefined) throw new Error(`no node ${index} in this worker`)
  return found
}

async function handle (request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'start': {
      if (request.trace === true) stalls = watchStalls()
      for (let at = 0; at < request.count; at += START_BATCH) {
        nodes.push(...await Promise.all(Array.from({ length: Math.min(START_BATCH, request.count - at) }, async () => await startNode(request.trace === true))))
      }
      return nodes.map((n) => (n.network.multiaddrs()[0] ?? n.network.peerId).toString())
    }
    case 'dial':
      await node(request.from).network.dial(request.to)
      return null
    case 'meshes':
      return nodes.map((n): NodeMesh => ({ peerId: n.network.peerId.toString(), peers: n.network.libp2p.getPeers().length, meshes: [n.network.meshPeers(TOPICS.memories)] }))
    case 'publish': {
      // What a node does with its own memory: verify and store it (LocalNode.remember), then gossip it.
      const publisher = node(request.node)
      const record = verifyRecordBytes(request.bytes, { verifier: publisher.verifier, now: Date.now() })
      publisher.host.putLocal(record)
      const sentAt = absolute(performance.now())
      const { topic } = await publisher.network.publishRecord(record.signed.record.kind, request.bytes)
      return { id: record.id, messageId: messageIdToString(messageIdOf(topic, request.bytes)), sentAt }
    }
    case 'collect': {
      const arrivals = new Map<string, number[]>()
      for (const n of nodes) {
        for (const [id, at] of n.host.arrivals) {
          const list = arrivals.get(id)
          if (list === undefined) arrivals.set(id, [absolute(at)])
          else list.push(absolute(at))
        }
      }
      const cpu = process.threadCpuUsage()
      const report: WorkerReport = {
        arrivals: [...arrivals],
        verifications: nodes.reduce((sum, n) => sum + n.verifier.total, 0),
        maxVerificationsPerRecord: Math.max(0, ...nodes.map((n) => n.verifier.maxPerRecord)),
        duplicates: nodes.reduce((sum, n) => sum + n.host.duplicates, 0),
        peers: nodes.reduce((sum, n) => sum + n.network.libp2p.getPeers().length, 0),
        threadCpuMs: (cpu.user + cpu.system) / 1000
      }
      return report
    }
    case 'trace': {
      const report: TraceReport = { nodes: nodes.map((n) => [...n.messages ?? []]), stalls }
      return report
    }
    case 'stop':
      await Promise.allSettled(nodes.map(async (n) => { await n.network.stop() }))
      return null
  }
}

parentPort?.on('message', (message: { id: number, request: WorkerRequest }) => {
  handle(message.request).then(
    (result) => { parentPort?.postMessage({ id: message.id, result }) },
    (err: unknown) => { parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.stack ?? err.message : String(err) }) }
  )
})
