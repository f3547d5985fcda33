import { describe, expect, it } from 'vitest'
import {
  createLinkSchedule, MIN_RTO_MS, retransmissionTimeoutMs, SEGMENT_BYTES, shapesTraffic, streamSeed, type LinkConditions
} from '../../../src/net/index.js'

/* Link conditions (src/net/link/link-conditions.ts): the delays a seed, a latency, a jitter and a loss produce. */

const conditions = (c: Partial<LinkConditions>): LinkConditions => ({ latencyMs: 0, jitterMs: 0, lossPercent: 0, seed: 7, ...c })

/** Delays (release − write time) of chunks of `bytes` written `gapMs` apart. */
function delays (c: LinkConditions, stream: number, count: number, bytes = 100, gapMs = 1000): number[] {
  const schedule = createLinkSchedule(c, stream)
  return Array.from({ length: count }, (_, i) => schedule.release(i * gapMs, bytes) - i * gapMs)
}

describe('link conditions', () => {
  it('vector: seed 7, 20 ± 5 ms, no loss: each delay uniform in [15, 25]', () => {
    const got = delays(conditions({ latencyMs: 20, jitterMs: 5 }), 1, 5)
    const want = [22.451601506426513, 22.02948036354428, 24.936161274482856, 19.233217593442987, 18.900448703965594]
    got.forEach((d, i) => { expect(d, `chunk ${i}`).toBeCloseTo(want[i] as number, 9) })
    for (const d of delays(conditions({ latencyMs: 20, jitterMs: 5 }), 3, 200)) {
      expect(d).toBeGreaterThanOrEqual(15)
      expect(d).toBeLessThanOrEqual(25)
    }
  })

  it('keeps the byte order: a chunk never arrives before the one written before it', () => {
    // Seed 7, stream 0, five chunks written at once: the second draws 19.73 ms, the later ones less,
    // and wait behind it (TCP's head-of-line blocking).
    const schedule = createLinkSchedule(conditions({ latencyMs: 20, jitterMs: 5 }), 0)
    const releases = Array.from({ length: 5 }, () => schedule.release(0, 100))
    expect(releases[0]).toBeCloseTo(18.205721968351526, 9)
    for (const r of releases.slice(1)) expect(r).toBeCloseTo(19.73004678640604, 9)
    const many = createLinkSchedule(conditions({ latencyMs: 50, jitterMs: 40, lossPercent: 20 }), 9)
    let last = -Infinity
    for (let i = 0; i < 500; i++) {
      const at = many.release(i * 3, 2000)
      expect(at).toBeGreaterThanOrEqual(last)
      last = at
    }
  })

  it('vector: seed 7, 20 ms, 30% loss: a lost lone segment adds the RTO (240 ms), a second loss 2 × RTO more', () => {
    expect(retransmissionTimeoutMs({ latencyMs: 20, jitterMs: 0 })).toBe(240)
    expect(delays(conditions({ latencyMs: 20, lossPercent: 30 }), 0, 10)).toEqual([20, 20, 740, 260, 20, 20, 20, 20, 20, 260])
    // Ten segments per chunk: a lost segment with three more behind it is fast-retransmitted after
    // one round trip (40 ms), its retransmission lost again waits the RTO; the chunk waits for its slowest.
    expect(delays(conditions({ latencyMs: 20, lossPercent: 30 }), 0, 3, 10 * SEGMENT_BYTES, 10_000)).toEqual([300, 60, 260])
  })

  it('loss of a one-segment chunk only ever adds whole backed-off timeouts, never drops the chunk', () => {
    const c = conditions({ latencyMs: 30, jitterMs: 0, lossPercent: 50 })
    const rto = retransmissionTimeoutMs(c)
    // k losses in a row wait RTO + 2 RTO + … + 2^(k−1) RTO (below the 120 s cap of one timeout):
    // a lone segment has no later ones to raise duplicate ACKs, so no fast retransmit.
    const backoffs = new Set(Array.from({ length: 9 }, (_, k) => 30 + (2 ** k - 1) * rto))
    const got = delays(c, 4, 200, 100, 1_000_000)
    for (const d of got) expect(backoffs.has(d), `delay ${d}`).toBe(true)
    const lost = got.filter((d) => d > 30).length / got.length
    expect(lost).toBeGreaterThan(0.35)
    expect(lost).toBeLessThan(0.65)
  })

  it('RTO follows Linux: 2 × latency + max(4 × jitter, 200 ms)', () => {
    expect(retransmissionTimeoutMs({ latencyMs: 0, jitterMs: 0 })).toBe(MIN_RTO_MS)
    expect(retransmissionTimeoutMs({ latencyMs: 100, jitterMs: 80 })).toBe(520)
  })

  it('streams of one seed differ, and one seed gives one sequence', () => {
    const c = conditions({ latencyMs: 20, jitterMs: 10 })
    expect(delays(c, 0, 20)).toEqual(delays(c, 0, 20))
    expect(delays(c, 0, 20)).not.toEqual(delays(c, 1, 20))
    expect(delays(c, 0, 20)).not.toEqual(delays({ ...c, seed: 8 }, 0, 20))
    expect(new Set(Array.from({ length: 1000 }, (_, i) => streamSeed(7, i))).size).toBe(1000)
  })

  it('no conditions, no shaping', () => {
    expect(shapesTraffic(conditions({}))).toBe(false)
    expect(shapesTraffic(conditions({ lossPercent: 1 }))).toBe(true)
    expect(delays(conditions({}), 0, 3)).toEqual([0, 0, 0])
  })
})
