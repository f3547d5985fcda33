import type { PeerId } from '@libp2p/interface'
import { IsnadError } from '../../errors/index.js'
import { FrameReader, isViolation, sendFrames, withDeadline } from '../wire/index.js'
import { deadline, type NetContext } from '../net-context.js'

/**
 * One client exchange of fetch-v1 (§4, §8): dials `protocol`, sends the request and half-closes
 * (F3), hands each frame of the answer (at most `maxFrame` bytes) to `onFrame` until the peer ends,
 * all within the deadline, then `finish`es. A violation penalises the peer; any failure resets the stream.
 */
export async function exchange<T> (
  context: NetContext, peer: PeerId, init: { protocol: string, request: Uint8Array, maxFrame: number, timeoutMs: number, what: string },
  onFrame: (frame: Uint8Array) => void, finish: () => Promise<T> | T
): Promise<T> {
  const signal = deadline(context, init.timeoutMs)
  const stream = await context.libp2p.dialProtocol(peer, init.protocol, { signal })
  try {
    const reader = new FrameReader(stream, init.maxFrame, signal)
    await withDeadline(stream, signal, async () => {
      await sendFrames(stream, [init.request], signal)
      await stream.close({ signal }) // the request is complete: half-close (F3)
      for (let frame = await reader.next(init.maxFrame); frame !== null; frame = await reader.next(init.maxFrame)) onFrame(frame)
    })
    return await finish()
  } catch (err) {
    stream.abort(err instanceof Error ? err : new Error(String(err)))
    if (isViolation(err)) context.penalize(peer, `${init.what}: ${String(err)}`)
    throw err
  }
}

/** A fetch-v1 violation (§5): the peer is penalised and the stream reset. */
export function violation (message: string): IsnadError {
  return new IsnadError('DECODE_FAILED', message, { details: { violation: true } })
}
