import type { MessageStream } from '@libp2p/interface'
import { StreamCloseEvent, StreamMessageEvent } from '@libp2p/interface'
import * as lp from 'it-length-prefixed'
import { describe, expect, it } from 'vitest'
import { SEND_CHUNK_BYTES } from '../../../src/net/constants.js'
import { FrameReader, sendFrames } from '../../../src/net/wire/frames.js'

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

/** The sending side of a message stream: what was sent, and back-pressure the test controls. */
class SendStream {
  readonly sent: Uint8Array[] = []
  /** What `send` answers: false says the buffer is full and the sender must wait for 'drain'. */
  accepting = true
  private drained: (() => void) | undefined
  send (bytes: Uint8Array): boolean {
    this.sent.push(Uint8Array.from(bytes))
    return this.accepting
  }

  async onDrain ({ signal }: { signal: AbortSignal }): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.drained = resolve
      signal.addEventListener('abort', () => { reject(new Error('aborted')) }, { once: true })
    })
  }

  drain (): void {
    this.accepting = true
    const drained = this.drained
    this.drained = undefined
    drained?.()
  }

  get waiting (): boolean { return this.drained !== undefined }
}

/** Payloads of the given sizes, each filled with its own index so a misplaced byte shows. */
const payloadsOf = (sizes: number[]): Uint8Array[] => sizes.map((size, i) => new Uint8Array(size).fill(i % 251))
const concat = (parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]))

/** Sends `payloads` through sendFrames and reads them back with FrameReader, chunk by chunk as sent. */
async function roundTrip (payloads: Uint8Array[]): Promise<{ sent: Uint8Array[], read: Uint8Array[] }> {
  const out = new SendStream()
  await sendFrames(out as unknown as MessageStream, payloads, new AbortController().signal)
  const into = new FakeStream()
  const reader = new FrameReader(asStream(into), 128 * 1024, new AbortController().signal)
  for (const chunk of out.sent) into.deliver(chunk)
  into.end()
  const read: Uint8Array[] = []
  for (let frame = await reader.next(128 * 1024); frame !== null; frame = await reader.next(128 * 1024)) read.push(frame)
  return { sent: out.sent, read }
}

describe('sendFrames (fetch-v1 §2, sync-v1 §2)', () => {
  it('packs a page into full sends whose frames straddle their boundaries, the same bytes as frame by frame', async () => {
    // 256 records of 600-900 bytes: about three and a half sends' worth.
    const payloads = payloadsOf(Array.from({ length: 256 }, (_, i) => 600 + ((i * 37) % 300)))
    const { sent, read } = await roundTrip(payloads)
    expect(sent.length).toBe(Math.ceil(concat(payloads.map((p) => frame(p))).length / SEND_CHUNK_BYTES))
    expect(sent.slice(0, -1).every((chunk) => chunk.length === SEND_CHUNK_BYTES)).toBe(true)
    expect(concat(sent)).toEqual(concat(payloads.map((p) => frame(p))))
    expect(read).toEqual(payloads)
  })

  it('splits a record larger than one send across sends, and a length prefix across a boundary', async () => {
    const large = 128 * 1024 // MAX_RECORD_BYTES: two sends and a part of a third
    // The first payload leaves exactly one byte of the first send: the next length prefix (3 bytes) straddles it.
    const first = SEND_CHUNK_BYTES - 3 - 1
    const payloads = payloadsOf([first, large, 5, large])
    const { sent, read } = await roundTrip(payloads)
    expect(concat(sent)).toEqual(concat(payloads.map((p) => frame(p))))
    expect(sent.slice(0, -1).every((chunk) => chunk.length === SEND_CHUNK_BYTES)).toBe(true)
    expect(read).toEqual(payloads)
  })

  it('sends a lone small frame as it is, and nothing for no frames', async () => {
    expect((await roundTrip([Uint8Array.of(7, 8)])).sent).toEqual([frame(Uint8Array.of(7, 8))])
    expect((await roundTrip([])).sent).toEqual([])
  })

  it('waits for the stream to drain before sending more, and gives up at the deadline', async () => {
    const out = new SendStream()
    out.accepting = false
    const payloads = payloadsOf([SEND_CHUNK_BYTES, SEND_CHUNK_BYTES])
    const sending = sendFrames(out as unknown as MessageStream, payloads, new AbortController().signal)
    await new Promise((resolve) => setImmediate(resolve))
    expect(out.sent.length).toBe(1) // the first send filled the buffer: nothing more until 'drain'
    expect(out.waiting).toBe(true)
    out.drain()
    await sending
    expect(concat(out.sent)).toEqual(concat(payloads.map((p) => frame(p))))

    const stuck = new SendStream()
    stuck.accepting = false
    const controller = new AbortController()
    const timedOut = sendFrames(stuck as unknown as MessageStream, payloads, controller.signal)
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    await expect(timedOut).rejects.toThrow('aborted')
    expect(stuck.sent.length).toBe(1)
  })
})
