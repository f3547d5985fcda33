import type { MessageStream } from '@libp2p/interface'
import { StreamCloseEvent, StreamMessageEvent } from '@libp2p/interface'
import * as lp from 'it-length-prefixed'
import { describe, expect, it } from 'vitest'
import { FrameReader } from '../../../src/net/frames.js'

/** The parts of a libp2p 3 message stream the reader uses: events and `readableEnded`. */
class FakeStream extends EventTarget {
  readableEnded = false
  deliver (bytes: Uint8Array): void { this.dispatchEvent(new StreamMessageEvent(bytes)) }
  end (): void { this.readableEnded = true; this.dispatchEvent(new Event('end')) }
}

const asStream = (s: FakeStream): MessageStream => s as unknown as MessageStream
const frame = (bytes: Uint8Array): Uint8Array => lp.encode.single(bytes).subarray()

describe('FrameReader (fetch-v1 §2, sync-v1 §2)', () => {
  it('reads frames that arrived, and the end, before the first read', async () => {
    const stream = new FakeStream()
    const reader = new FrameReader(asStream(stream), 16, new AbortController().signal)
    stream.deliver(Uint8Array.from([...frame(Uint8Array.of(1)), ...frame(Uint8Array.of(2, 3))]))
    stream.end() // the peer answered and closed before anyone read: libp2p's own iterator would hang here
    expect(await reader.next(16)).toEqual(Uint8Array.of(1))
    expect(await reader.next(16)).toEqual(Uint8Array.of(2, 3))
    expect(await reader.next(16)).toBeNull()
  })

  it('refuses a frame over the limit as soon as its length is read', async () => {
    const stream = new FakeStream()
    const reader = new FrameReader(asStream(stream), 4, new AbortController().signal)
    stream.deliver(frame(new Uint8Array(5)).subarray(0, 1)) // only the length prefix
    await expect(reader.next(4)).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE', details: { violation: true } })
  })

  it('fails a pending read at the deadline and when the stream is reset', async () => {
    const controller = new AbortController()
    const reader = new FrameReader(asStream(new FakeStream()), 4, controller.signal)
    const pending = reader.next(4)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ code: 'IO_ERROR', details: { timeout: true } })

    const stream = new FakeStream()
    const reset = new FrameReader(asStream(stream), 4, new AbortController().signal)
    stream.dispatchEvent(new StreamCloseEvent(false, new Error('reset by peer')))
    await expect(reset.next(4)).rejects.toMatchObject({ code: 'IO_ERROR' })
  })

  it('reports a stream that ends inside a frame as the peer\'s fault', async () => {
    const stream = new FakeStream()
    const reader = new FrameReader(asStream(stream), 16, new AbortController().signal)
    stream.deliver(frame(Uint8Array.of(1, 2, 3)).subarray(0, 2))
    stream.end()
    await expect(reader.next(16)).rejects.toMatchObject({ code: 'DECODE_FAILED', details: { violation: true } })
  })
})
