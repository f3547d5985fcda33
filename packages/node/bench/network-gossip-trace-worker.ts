import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import type { GossipSub } from '@libp2p/gossipsub'
import type { RPC } from '@libp2p/gossipsub/message'
import { createNetwork, TOPICS, type Network } from '../src/net/index.js'
import { messageIdOf, messageIdToString } from '../src/net/gossip/index.js'
import { verifyRecordBytes } from '../src/record/index.js'
import { BenchHost, CountingVerifier } from './network-host.js'
import type { NodeMesh } from './node-threads.js'

/*
 * One worker thread of the gossip trace (network-gossip-trace.ts): the nodes of figure 8a's threaded
 * run, each with its gossipsub watched. Per message id and node it notes when each copy came in
 * (an RPC, or an IHAVE naming it), when validation ended and when the host accepted it; per thread,
 * every event-loop stall over STALL_MS. Times are absolute (performance.timeOrigin + now).
 */

export type TraceRequest =
  | { op: 'start', count: number }
  | { op: 'dial', from: number, to: string }
  | { op: 'meshes' }
  | { op: 'publish', node: number, bytes: Uint8Array }
  | { op: 'collect' }
  | { op: 'stop' }

/** What one node saw of one message: first copy, from whom, validation's end, the host's accept, copies and IHAVEs. */
export interface MessageTrace {
  firstCopyAt?: number
  copies: number
  ihaves: number
  validatedAt?: number
  acceptedAt?: number
}

export interface TraceReport {
  /** Per node, per message id. */
  nodes: Array<Array<[string, MessageTrace]>>
  /** [start, duration] of each event-loop stall of this thread, ms. */
  stalls: Array<[number, number]>
}

/** The parts of gossipsub's class the trace wraps: not in its published interface. */
interface WatchedGossipsub {
  handleReceivedRpc: (from: { toString: () => string }, rpc: RPC) => Promise<void>
  validateReceivedMessage: (from: unknown, message: RPC.Message) => Promise<{ code: string }>
}

interface Node {
  network: Network
  host: BenchHost
  verifier: CountingVerifier
  messages: Map<string, MessageTrace>
}

const START_BATCH = 10
/** @default 40 — an event-loop turn longer than this is a stall. */
const STALL_MS = 40
const nodes: Node[] = []
const stalls: Array<[number, number]> = []
const now = (): number => performance.timeOrigin + performance.now()

let lastTick = now()
setInterval(() => {
  const at = now()
  if (at - lastTick > STALL_MS) stalls.push([lastTick, at - lastTick])
  lastTick = at
}, 5).unref()

function idOf (message: RPC.Message): string {
  return messageIdToString(messageIdOf(message.topic, message.data ?? new Uint8Array(0)))
}

function watch (node: Node): void {
  const pubsub = node.network.libp2p.services.pubsub as GossipSub & WatchedGossipsub
  const traceOf = (id: string): MessageTrace => {
    let trace = node.messages.get(id)
    if (trace === undefined) node.messages.set(id, trace = { copies: 0, ihaves: 0 })
    return trace
  }
  const handleRpc = pubsub.handleReceivedRpc.bind(pubsub)
  pubsub.handleReceivedRpc = async (from, rpc) => {
    for (const message of rpc.messages) {
      const trace = traceOf(idOf(message))
      trace.copies++
      trace.firstCopyAt ??= now()
    }
    for (const ihave of rpc.control?.ihave ?? []) for (const id of ihave.messageIDs) traceOf(messageIdToString(id)).ihaves++
    await handleRpc(from, rpc)
  }
  const validate = pubsub.validateReceivedMessage.bind(pubsub)
  pubsub.validateReceivedMessage = async (from, message) => {
    const result = await validate(from, message)
    if (result.code === 'valid') traceOf(idOf(message)).validatedAt = now()
    return result
  }
  const accept = node.host.accept.bind(node.host)
  node.host.accept = async (records, source) => {
    for (const record of records) traceOf(messageIdToString(messageIdOf(TOPICS.memories, record.bytes))).acceptedAt ??= now()
    await accept(records, source)
  }
}

async function startNode (): Promise<Node> {
  const host = new BenchHost()
  const verifier = new CountingVerifier()
  const network = await createNetwork({ host, verifier, listen: ['/ip4/127.0.0.1/tcp/0'], dht: false })
  const node = { network, host, verifier, messages: new Map<string, MessageTrace>() }
  watch(node)
  return node
}

function node (index: number): Node {
  const found = nodes[index]
  if (found === undefined) throw new Error(`no node ${index} in this worker`)
  return found
}

async function handle (request: TraceRequest): Promise<unknown> {
  switch (request.op) {
    case 'start':
      for (let at = 0; at < request.count; at += START_BATCH) {
        nodes.push(...await Promise.all(Array.from({ length: Math.min(START_BATCH, request.count - at) }, startNode)))
      }
      return nodes.map((n) => (n.network.multiaddrs()[0] ?? n.network.peerId).toString())
    case 'dial':
      await node(request.from).network.dial(request.to)
      return null
    case 'meshes':
      return nodes.map((n): NodeMesh => ({ peerId: n.network.peerId.toString(), peers: n.network.libp2p.getPeers().length, meshes: [n.network.meshPeers(TOPICS.memories)] }))
    case 'publish': {
      const publisher = node(request.node)
      const record = verifyRecordBytes(request.bytes, { verifier: publisher.verifier, now: Date.now() })
      publisher.host.putLocal(record)
      const sentAt = now()
      const { topic } = await publisher.network.publishRecord(record.signed.record.kind, request.bytes)
      return { messageId: messageIdToString(messageIdOf(topic, request.bytes)), sentAt }
    }
    case 'collect': {
      const report: TraceReport = { nodes: nodes.map((n) => [...n.messages]), stalls }
      return report
    }
    case 'stop':
      await Promise.allSettled(nodes.map(async (n) => { await n.network.stop() }))
      return null
  }
}

parentPort?.on('message', (message: { id: number, request: TraceRequest }) => {
  handle(message.request).then(
    (result) => { parentPort?.postMessage({ id: message.id, result }) },
    (err: unknown) => { parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.stack ?? err.message : String(err) }) }
  )
})
