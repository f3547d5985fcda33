import { performance } from 'node:perf_hooks'
import type { GossipSub } from '@libp2p/gossipsub'
import type { RPC } from '@libp2p/gossipsub/message'
import { TOPICS, type Network } from '../src/net/index.js'
import { messageIdOf, messageIdToString } from '../src/net/gossip/index.js'
import type { BenchHost } from './network-host.js'

/*
 * The gossip trace's watch on a node of the threaded gossip benchmark (network-gossip-trace.ts):
 * per message id, when each copy came in (an RPC, or an IHAVE naming it), when validation ended and
 * when the host accepted it; per thread, every event-loop stall over STALL_MS. Times are absolute
 * (performance.timeOrigin + now), so they compare across threads.
 */

/** What one node saw of one message: its first copy, the copies and IHAVEs, validation's end, the host's accept. */
export interface MessageTrace {
  firstCopyAt?: number
  copies: number
  ihaves: number
  validatedAt?: number
  acceptedAt?: number
}

export interface TraceReport {
  /** Per node of the thread, per message id. */
  nodes: Array<Array<[string, MessageTrace]>>
  /** [start, duration] of each event-loop stall of this thread, ms. */
  stalls: Array<[number, number]>
}

/** The parts of gossipsub's class the trace wraps: not in its published interface. */
interface WatchedGossipsub {
  handleReceivedRpc: (from: { toString: () => string }, rpc: RPC) => Promise<void>
  validateReceivedMessage: (from: unknown, message: RPC.Message) => Promise<{ code: string }>
}

/** @default 40 — an event-loop turn longer than this is a stall. */
const STALL_MS = 40
const now = (): number => performance.timeOrigin + performance.now()

/** Starts noting this thread's event-loop stalls; returns the list it fills. */
export function watchStalls (): Array<[number, number]> {
  const stalls: Array<[number, number]> = []
  let lastTick = now()
  setInterval(() => {
    const at = now()
    if (at - lastTick > STALL_MS) stalls.push([lastTick, at - lastTick])
    lastTick = at
  }, 5).unref()
  return stalls
}

function idOf (message: RPC.Message): string {
  return messageIdToString(messageIdOf(message.topic, message.data ?? new Uint8Array(0)))
}

/** Wraps the node's gossipsub and host to note what happens to each message; returns the map it fills. */
export function watchGossip (network: Network, host: BenchHost): Map<string, MessageTrace> {
  const messages = new Map<string, MessageTrace>()
  const pubsub = network.libp2p.services.pubsub as GossipSub & WatchedGossipsub
  const traceOf = (id: string): MessageTrace => {
    let trace = messages.get(id)
    if (trace === undefined) messages.set(id, trace = { copies: 0, ihaves: 0 })
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
  const accept = host.accept.bind(host)
  host.accept = async (records, source) => {
    for (const record of records) traceOf(messageIdToString(messageIdOf(TOPICS.memories, record.bytes))).acceptedAt ??= now()
    await accept(records, source)
  }
  return messages
}
