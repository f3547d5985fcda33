import type { Connection, Stream } from '@libp2p/interface'
import { IsnadError } from '../errors/index.js'
import { FrameReader, isViolation, sendFrames, withDeadline } from './wire/index.js'
import { deadline, type NetContext } from './net-context.js'

/** What a request-response protocol's server side is named and bounded by. */
export interface ServedProtocol {
  /** `fetch`, `sync`: names the protocol in errors, penalties and the log. */
  name: string
  timeoutMs: number
  /** The request frame's limit. */
  maxRequestBytes: number
}

/**
 * The server side shared by fetch and sync (fetch-v1 §3, sync-v1 S2): one request frame, read
 * within the deadline; the frames `answer` makes of it sent; the stream closed. Any failure aborts
 * the stream, and a request that breaks the protocol (a violation) also penalises the peer.
 */
export function serveOneRequest (
  context: NetContext, protocol: ServedProtocol, answer: (request: Uint8Array) => Promise<Uint8Array[]>
): (stream: Stream, connection: Connection) => Promise<void> {
  const { name, timeoutMs, maxRequestBytes } = protocol
  return async (stream, connection) => {
    const signal = deadline(context, timeoutMs)
    try {
      await withDeadline(stream, signal, async () => {
        const reader = new FrameReader(stream, maxRequestBytes, signal)
        const frame = await reader.next(maxRequestBytes)
        if (frame === null) throw new IsnadError('DECODE_FAILED', `${name} stream closed before its request`, { details: { violation: true } })
        await sendFrames(stream, await answer(frame), signal)
        await stream.close({ signal })
      })
    } catch (err) {
      stream.abort(err instanceof Error ? err : new Error(String(err)))
      if (isViolation(err)) context.penalize(connection.remotePeer, `${name} request: ${String(err)}`)
      context.log('%s serving %p failed: %s', name, connection.remotePeer, String(err))
    }
  }
}
