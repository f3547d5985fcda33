import type { StreamMuxerFactory } from '@libp2p/interface'
import { yamux, type YamuxMuxerInit } from '@libp2p/yamux'
import type { YamuxStream } from '@libp2p/yamux/stream'

/*
 * Yamux that a connection closed while a stream opens cannot crash. @libp2p/yamux (8.0.3) opens an
 * outbound stream by sending its first window update (the SYN) in a microtask after `newStream`
 * returned it. If the connection is aborted in between (a failed ping, the connection guard, any
 * local close in the same tick), the stream is already closed when that microtask runs; once the
 * connection's round trip is known (after yamux's first keep-alive ping) the update still goes out,
 * as a window increase, into the closed connection, and the StreamStateError it throws has no caller
 * to catch it: an uncaught exception ends the process, every daemon in it. Here that one deferred
 * update is skipped when the stream has closed meanwhile (there is nothing left to open), and if the
 * send still fails the stream is aborted with the error, which its opener then sees.
 */

/** Statuses after which a stream sends nothing more. */
const FINISHED = new Set(['closed', 'aborted', 'reset'])

/** `yamux(init)`, whose outbound streams' deferred opening cannot throw into the event loop. */
export function guardedYamux (init: YamuxMuxerInit = {}): () => StreamMuxerFactory {
  const yamuxFactory = yamux(init)
  return () => {
    const factory = yamuxFactory()
    const createMuxer = factory.createStreamMuxer.bind(factory)
    factory.createStreamMuxer = (maConn) => {
      const muxer = createMuxer(maConn)
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
