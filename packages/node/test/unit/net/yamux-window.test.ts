import { StreamState, YamuxStream } from '@libp2p/yamux/stream'
import { Uint8ArrayList } from 'uint8arraylist'
import { describe, expect, it } from 'vitest'
import { updateAtHalfWindow } from '../../../src/net/yamux-guard.js'
import { silentLogger } from '../../fixtures/silent-logger.js'

/*
 * Window updates at half a window (src/net/yamux-guard.ts) on @libp2p/yamux's own stream: the frames
 * it would send are recorded instead of written. Yamux answers every data frame with a window
 * update; the wrapped stream answers once half of its 256 KiB window is used, with the whole delta.
 */

/** Yamux frame types (the yamux specification): 0 data, 1 window update. */
const DATA = 0
const WINDOW_UPDATE = 1
const WINDOW = 256 * 1024
const KIB = new Uint8Array(1024)

interface SentFrame { type: number, flag: number, length: number }

function openStream (state: StreamState): { stream: YamuxStream, sent: SentFrame[] } {
  const sent: SentFrame[] = []
  const stream = new YamuxStream({
    id: '1',
    streamId: 1,
    state,
    direction: 'inbound',
    log: silentLogger,
    getRTT: () => -1,
    sendFrame: (header: SentFrame) => { sent.push({ type: header.type, flag: header.flag, length: header.length }); return true }
  })
  return { stream, sent }
}

function receive (stream: YamuxStream, frames: number): void {
  for (let i = 0; i < frames; i++) {
    stream.handleData({ header: { type: DATA, flag: 0, streamID: 1, length: KIB.length, version: 0 }, data: new Uint8ArrayList(KIB) })
  }
}

describe('yamux window updates at half a window', () => {
  it('yamux alone sends a window update for every data frame', () => {
    const { stream, sent } = openStream(StreamState.Established)
    receive(stream, 10)
    expect(sent.filter((f) => f.type === WINDOW_UPDATE)).toHaveLength(10)
  })

  it('sends none while more than half the window is open, then one for all that was used', () => {
    const { stream, sent } = openStream(StreamState.Established)
    updateAtHalfWindow(stream)
    receive(stream, WINDOW / 2 / KIB.length - 1) // more than half still open
    expect(sent).toEqual([])
    receive(stream, 1) // half used
    expect(sent).toEqual([{ type: WINDOW_UPDATE, flag: 0, length: WINDOW / 2 }])
    receive(stream, 100) // a new half window begins
    expect(sent).toHaveLength(1)
  })

  it('a burst of a megabyte costs 8 window updates, not 1,024', () => {
    const { stream, sent } = openStream(StreamState.Established)
    updateAtHalfWindow(stream)
    receive(stream, 1024)
    expect(sent.every((f) => f.type === WINDOW_UPDATE)).toBe(true)
    expect(sent.reduce((sum, f) => sum + f.length, 0)).toBe(1024 * KIB.length)
    expect(sent).toHaveLength(8)
  })

  it("still answers an opening stream's first frame at once (its ACK)", () => {
    const { stream, sent } = openStream(StreamState.SYNReceived)
    updateAtHalfWindow(stream)
    receive(stream, 1)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.flag).not.toBe(0)
  })
})
