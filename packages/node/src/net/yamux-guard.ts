import type { StreamMuxerFactory } from '@libp2p/interface'
import { yamux, type YamuxMuxerInit } from '@libp2p/yamux'
import { StreamState, type YamuxStream } from '@libp2p/yamux/stream'

/*
 * Yamux as @libp2p/yamux (8.0.3) makes it, with two changes to its streams' window updates.
 *
 * 1. A connection closed while a stream opens cannot crash the process. Yamux opens an outbound
 * stream by sending its first window update (the SYN) in a microtask after `newStream` returned it.
 * If the connection is aborted in between (a failed ping, the connection guard, any local close in
 * the same tick), the stream is already closed when that microtask runs; once the connection's round
 * trip is known (after yamux's first keep-alive ping) the update still goes out, as a window
 * increase, into the closed connection, and the StreamStateError it throws has no caller to catch
 * it: an uncaught exception ends the process, every daemon in it. Here that one deferred update is
 * skipped when the stream has closed meanwhile (there is nothing left to open), and if the send
 * still fails the stream is aborted with the error, which its opener then sees.
 *
 * 2. A stream's receive window is topped up once half of it is used, not after every data frame.
 * Yamux answers each data frame it reads with a window update frame: a gossip message is one data
 * frame, so a node receiving a burst sent one 12-byte frame back per message (encrypted, written,
 * read and decrypted by the sender: about as much work per frame as the message's own framing).
 * The sender still has at least half a window (128 KiB at first) when the update comes, as
 * hashicorp/yamux (the specification's reference implementation) and go-yamux do it; the window's
 * growth with the round trip (yamux's own rule) is unchanged, judged at each update sent.
 */

/** Statuses after which a stream sends nothing more. */
const FINISHED = new Set(['closed', 'aborted', 'reset'])

/** The fields of a YamuxStream its window update reads: private in its type, plain fields at run time. */
interface StreamWindow {
  recvWindow: number
  recvWindowCapacity: number
}

/** `yamux(init)` with the changes above: deferred openings that cannot throw, window updates at half a window. */
export function guardedYamux (init: YamuxMuxerInit = {}): () => StreamMuxerFactory {
  const yamuxFactory = yamux(init)
  return () => {
    const factory = yamuxFactory()
    const createMuxer = factory.createStreamMuxer.bind(factory)
    factory.createStreamMuxer = (maConn) => {
      const muxer = createMuxer(maConn)
      // Every stream, inbound and outbound, is made by the muxer's private _newStream.
      const streams = muxer as unknown as { _newStream: (...args: unknown[]) => YamuxStream }
      const newStream = streams._newStream.bind(muxer)
      streams._newStream = (...args: unknown[]) => updateAtHalfWindow(newStream(...args))
      const createStream = muxer.onCreateStream.bind(muxer)
      muxer.onCreateStream = () => guardOpening(createStream())
      return muxer
    }
    return factory
  }
}

/**
 * Wraps the stream's next window update, the one yamux deferred to open it: nothing opens on the
 * same tick in between (its opener gets the stream later), so that call is the deferred one.
 */
export function guardOpening (stream: YamuxStream): YamuxStream {
  const sendWindowUpdate = stream.sendWindowUpdate
  stream.sendWindowUpdate = () => {
    stream.sendWindowUpdate = sendWindowUpdate
    if (FINISHED.has(stream.status)) return
    try {
      sendWindowUpdate.call(stream)
    } catch (err) {
      stream.abort(err instanceof Error ? err : new Error(String(err)))
    }
  }
  return stream
}

/**
 * Skips the stream's window updates while more than half its receive window is still open. Only
 * plain updates are skipped: one that carries a flag (the SYN or ACK that opens the stream, in the
 * Init and SYNReceived states) or follows a pause is yamux's own.
 */
export function updateAtHalfWindow (stream: YamuxStream): YamuxStream {
  const sendWindowUpdate = stream.sendWindowUpdate
  const window = stream as unknown as StreamWindow
  stream.sendWindowUpdate = function (this: YamuxStream) {
    const { state } = stream
    if ((state === StreamState.Established || state === StreamState.SYNSent) && window.recvWindowCapacity * 2 > window.recvWindow) return
    sendWindowUpdate.call(this)
  }
  return stream
}
