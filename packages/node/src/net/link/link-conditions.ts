import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/*
 * Link conditions of a simulated network (docs/simulation.md, "Latency and loss"): the pure core of
 * link shaping. Each end of a connection delays every chunk it writes by the one-way latency ±
 * jitter, as tc netem does on a sender's interface, so a round trip gains 2 × latency. Loss is
 * modelled the way TCP experiences it, never as missing bytes: each chunk is cut into segments, a
 * lost segment is sent again after a round trip (fast retransmit) or the retransmission timeout
 * (doubling at each loss in a row), and the chunk arrives when its slowest segment does. Bytes of one connection keep
 * their order: a chunk is never released before the one written before it (head-of-line blocking,
 * as in TCP). No clock and no randomness from outside: `now` is passed in and the random stream is
 * a function of the seed and the stream number.
 */

export interface LinkConditions {
  /** One-way delay added to every chunk, in ms. */
  latencyMs: number
  /** Each chunk's delay is uniform in latency ± jitter (netem's default distribution), never below 0. */
  jitterMs: number
  /** Probability, in percent, that a segment is lost (and retransmitted). */
  lossPercent: number
  /** Seeds every connection's random stream (the scenario's seed). */
  seed: number
}

/** Bytes per TCP segment: an Ethernet MTU of 1500 less IP and TCP headers with timestamps. */
export const SEGMENT_BYTES = 1448
/** Linux's floor of the retransmission timeout (TCP_RTO_MIN, 200 ms). */
export const MIN_RTO_MS = 200
/** Linux's ceiling of one backed-off retransmission timeout (TCP_RTO_MAX, 120 s). */
export const MAX_RTO_MS = 120_000
/** Retransmissions of one segment before TCP would give up (Linux tcp_retries2). */
export const MAX_RETRANSMISSIONS = 15
/** Duplicate ACKs that trigger a fast retransmit (RFC 5681 §3.2). */
export const DUPACK_THRESHOLD = 3

/** True when the conditions change anything (no shaping is installed otherwise). */
export function shapesTraffic (conditions: LinkConditions): boolean {
  return conditions.latencyMs > 0 || conditions.jitterMs > 0 || conditions.lossPercent > 0
}

/**
 * The retransmission timeout of a connection with these conditions, as Linux computes it once its
 * estimators have settled: smoothed RTT (2 × latency) plus max(4 × RTT variation, TCP_RTO_MIN);
 * the RTT of a link whose each end adds uniform ± jitter varies by about the jitter.
 */
export function retransmissionTimeoutMs (conditions: Pick<LinkConditions, 'latencyMs' | 'jitterMs'>): number {
  return 2 * conditions.latencyMs + Math.max(4 * conditions.jitterMs, MIN_RTO_MS)
}

/** Mixes the seed with a stream number (murmur3's 32-bit finaliser), so streams of one seed differ. */
export function streamSeed (seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) | 0
}

/** One direction of one connection: when each written chunk reaches the other end. */
export interface LinkSchedule {
  /** The time (same clock as `now`) at which a chunk of `bytes` written at `now` is delivered. */
  release: (now: number, bytes: number) => number
}

/** The delays of one direction of one connection; `stream` tells connections of one seed apart. */
export function createLinkSchedule (conditions: LinkConditions, stream: number): LinkSchedule {
  const rng = xoroshiro128plus(streamSeed(conditions.seed, stream))
  const random = (): number => uniformFloat64(rng)
  const loss = Math.min(1, Math.max(0, conditions.lossPercent / 100))
  const rto = retransmissionTimeoutMs(conditions)
  const rtt = 2 * conditions.latencyMs
  let last = -Infinity
  return {
    release: (now, bytes) => {
      const jitter = conditions.jitterMs > 0 ? (2 * random() - 1) * conditions.jitterMs : 0
      let delay = Math.max(0, conditions.latencyMs + jitter)
      if (loss > 0) delay += retransmissionDelayMs(Math.max(1, Math.ceil(bytes / SEGMENT_BYTES)), loss, rto, rtt, random)
      last = Math.max(last, now + delay)
      return last
    }
  }
}

/**
 * The extra delay of a chunk of `segments` segments: the longest recovery among them. A lost segment
 * followed by at least DUPACK_THRESHOLD segments of the chunk is noticed by duplicate ACKs and sent
 * again after one round trip (fast retransmit, RFC 5681 §3.2); otherwise (the tail of a flight)
 * after the RTO. A retransmission lost again is only found by the RTO, doubled each time (RFC 6298 §5.5).
 */
export function retransmissionDelayMs (segments: number, loss: number, rto: number, rtt: number, random: () => number): number {
  let worst = 0
  for (let s = 0; s < segments; s++) {
    if (random() >= loss) continue
    const fast = segments - 1 - s >= DUPACK_THRESHOLD
    let wait = fast ? rtt : rto
    let timeout = fast ? rto : Math.min(2 * rto, MAX_RTO_MS)
    for (let tries = 1; tries < MAX_RETRANSMISSIONS && random() < loss; tries++) {
      wait += timeout
      timeout = Math.min(2 * timeout, MAX_RTO_MS)
    }
    worst = Math.max(worst, wait)
  }
  return worst
}
