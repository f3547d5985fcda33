import type { MessageStream } from '@libp2p/interface'
import * as lp from 'it-length-prefixed'
import type { Uint8ArrayList } from 'uint8arraylist'
import { IsnadError } from '../../errors/index.js'
import { SEND_CHUNK_BYTES } from './constants.js'

/*
 * Length-prefixed frames over a libp2p 3 stream (fetch-v1 §2, sync-v1 §2): an unsigned varint
 * length, then that many bytes. libp2p 3 streams are message streams (`send`, events), no longer
 * `{ source, sink }` duplexes. Their async iterator is not used here: it listens for
 * 'remoteCloseWrite' and 'close' only from the moment iteration starts, so when the peer answered
 * and closed before (a short response to a half-closed request), it waits forever. StreamInbox
 * listens from the moment the stream is opened and also ends on 'end' and on the deadline.
 */

/** @default 5 — a varint of at most 5 bytes encodes every length up to 2^35 (far above any limit). */
const MAX_LENGTH_BYTES = 5

/** The bytes a stream delivers, as an async iterable that ends with the stream or the deadline. */
class StreamInbox implements AsyncIterable<Uint8Array | Uint8ArrayList> {
  private readonly queue: Array<Uint8Array | Uint8ArrayList> = []
  private ended = false
  private failure: Error | undefined
  private wake: (() => void) | undefined

  constructor (stream: MessageStream, signal: AbortSignal) {
    stream.addEventListener('message', (event) => {
      this.queue.push(event.data)
      this.notify()
    })
    stream.addEventListener('end', () => { this.finish(undefined) })
    stream.addEventListener('close', (event) => { this.finish(event.error) })
    const onAbort = (): void => { this.finish(new IsnadError('IO_ERROR', 'the exchange timed out', { details: { timeout: true } })) }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    if (stream.readableEnded) this.finish(undefined)
  }

  private finish (error: Error | undefined): void {
    if (this.ended) return
    this.ended = true
    this.failure = error
    this.notify()
  }

  private notify (): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  async * [Symbol.asyncIterator] (): AsyncGenerator<Uint8Array | Uint8ArrayList> {
    for (;;) {
      const chunk = this.queue.shift()
      if (chunk !== undefined) {
        yield chunk
        continue
      }
      if (this.failure !== undefined) throw this.failure
      if (this.ended) return
      await new Promise<void>((resolve) => { this.wake = resolve })
    }
  }
}

export class FrameReader {
  private limit: number
  private readonly frames: AsyncIterator<Uint8ArrayList>

  /** Create it as soon as the stream exists, before anything is sent on it. */
  constructor (stream: MessageStream, limit: number, signal: AbortSignal) {
    this.limit = limit
    this.frames = lp.decode(new StreamInbox(stream, signal), {
      maxLengthLength: MAX_LENGTH_BYTES,
      // Checked as soon as the length is read, before any of the frame is buffered.
      onLength: (length) => {
        if (length > this.limit) {
          throw new IsnadError('RECORD_TOO_LARGE', `frame of ${length} bytes exceeds the limit of ${this.limit}`, {
            details: { violation: true }
          })
        }
      }
    })[Symbol.asyncIterator]()
  }

  /** The next frame of at most `limit` bytes, or null at the end of the stream. */
  async next (limit: number): Promise<Uint8Array | null> {
    this.limit = limit
    let result: IteratorResult<Uint8ArrayList>
    try {
      result = await this.frames.next()
    } catch (err) {
      throw frameError(err)
    }
    return result.done === true ? null : result.value.subarray()
  }
}

/** Errors of the decoder as IsnadErrors: a malformed length prefix is the peer's fault. */
function frameError (err: unknown): unknown {
  if (err instanceof IsnadError) return err
  const name = err instanceof Error ? err.name : ''
  if (name === 'InvalidDataLengthError' || name === 'InvalidDataLengthLengthError' || name === 'InvalidMessageLengthError') {
    return new IsnadError('RECORD_TOO_LARGE', 'malformed or oversized frame length', { cause: err, details: { violation: true } })
  }
  if (name === 'UnexpectedEOFError') {
    return new IsnadError('DECODE_FAILED', 'the stream ended inside a frame', { cause: err, details: { violation: true } })
  }
  return new IsnadError('IO_ERROR', `stream failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
}

/**
 * Writes each payload as one frame (varint length, then the payload), packed into sends of
 * SEND_CHUNK_BYTES: the same bytes on the wire, with frames straddling send boundaries where they
 * fall (the reader's decoder does not care where the transport splits them). Waits for the stream
 * to drain when its buffer is full, so at most one chunk is built ahead of what the peer accepts.
 */
export async function sendFrames (stream: MessageStream, payloads: Iterable<Uint8Array>, signal: AbortSignal): Promise<void> {
  let chunk: Uint8Array[] = []
  let filled = 0
  const flush = async (): Promise<void> => {
    const bytes = chunk.length === 1 ? chunk[0] as Uint8Array : Buffer.concat(chunk, filled)
    chunk = []
    filled = 0
    if (!stream.send(bytes)) await stream.onDrain({ signal })
  }
  // lp.encode yields each frame as its length prefix, then its payload.
  for (let piece of lp.encode(payloads)) {
    while (filled + piece.length >= SEND_CHUNK_BYTES) {
      const room = SEND_CHUNK_BYTES - filled
      chunk.push(piece.subarray(0, room))
      filled += room
      piece = piece.subarray(room)
      await flush()
    }
    if (piece.length > 0) {
      chunk.push(piece)
      filled += piece.length
    }
  }
  if (filled > 0) await flush()
}

/**
 * Runs `exchange` with the stream aborted when `signal` fires (the time limit of the whole
 * exchange, fetch-v1 L4, sync-v1 L5), so a pending read fails instead of waiting forever.
 */
export async function withDeadline<T> (stream: MessageStream, signal: AbortSignal, exchange: () => Promise<T>): Promise<T> {
  const onAbort = (): void => {
    stream.abort(new IsnadError('IO_ERROR', 'the exchange timed out', { details: { timeout: true } }))
  }
  if (signal.aborted) onAbort()
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    return await exchange()
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** True when an error is the peer's fault (a protocol violation), not a network or time failure. */
export function isViolation (err: unknown): boolean {
  if (!(err instanceof IsnadError)) return false
  if (err.details?.violation === true) return true
  return ['RECORD_TOO_LARGE', 'DECODE_FAILED', 'SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'SIGNATURE_INVALID', 'SIGNATURE_MALFORMED',
    'DID_INVALID', 'WRONG_KIND', 'DRAW_INVALID', 'CID_MISMATCH', 'CID_INVALID', 'TIMESTAMP_INVALID'].includes(err.code)
}
