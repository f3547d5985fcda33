import { retransmissionDelayMs, retransmissionTimeoutMs, SEGMENT_BYTES } from 'isnad/engine'
import type { Scenario } from '../scenario/index.js'
import type { FastRandom } from './fast-random.js'

/*
 * One message's delays on the modelled network (docs/simulation.md, "The model engine"): each hop
 * costs the link's one-way latency ± jitter, as the real engines' link shaping does, plus TCP's
 * recovery of lost segments (the same function, src/net/link/link-conditions.ts: a lost segment costs a
 * round trip or a retransmission timeout, never the message), plus the receiving node's validation
 * before it forwards. A hop outside the mesh is gossipsub's repair: the holder announces the id in
 * an IHAVE at its next heartbeat, the receiver asks with IWANT, then the message follows.
 */

/** gossipsub's mesh parameters (js-libp2p gossipsub's defaults, which src/net keeps). */
export const GOSSIPSUB = {
  /** Target mesh degree. */
  D: 6,
  /** Below this many mesh peers a node grafts at its heartbeat. */
  Dlo: 4,
  /** Above this many it prunes back to D. */
  Dhi: 12,
  /** Non-mesh peers an IHAVE goes to at each heartbeat. */
  Dlazy: 6,
  /** src/net's heartbeatIntervalMs default. */
  heartbeatMs: 1000,
  /** Heartbeats a message id stays in IHAVE gossip (mcacheGossip). */
  historyGossip: 3
} as const

/**
 * Validation at each hop before forwarding (decode, schema, one Ed25519 verification: ~0.1–0.3 ms
 * on the machines of BENCHMARKS.md), @default 0.2 ms.
 */
export const HOP_PROCESSING_MS = 0.2

/** Round trips of a reconnection and its sync-v1 catch-up: dial + Noise (2), the sync exchange (1). */
export const SYNC_ROUND_TRIPS = 3

export class LinkModel {
  private readonly latency: number
  private readonly jitter: number
  private readonly loss: number
  private readonly rto: number
  private readonly rtt: number

  constructor (scenario: Scenario, private readonly random: FastRandom) {
    const { latencyMs, jitterMs, lossPercent } = scenario.network
    this.latency = latencyMs
    this.jitter = jitterMs
    this.loss = Math.min(1, Math.max(0, lossPercent / 100))
    this.rto = retransmissionTimeoutMs({ latencyMs, jitterMs })
    this.rtt = 2 * latencyMs
  }

  /** One transmission of `bytes` over one link, ms. */
  oneWay (bytes: number): number {
    let delay = this.latency
    if (this.jitter > 0) delay = Math.max(0, delay + (2 * this.random.next() - 1) * this.jitter)
    if (this.loss > 0) delay += retransmissionDelayMs(Math.max(1, Math.ceil(bytes / SEGMENT_BYTES)), this.loss, this.rto, this.rtt, this.random.next)
    return delay
  }

  /**
   * A message's delay over a path of `hops` hops, `repairs` of which were IHAVE/IWANT repairs: each
   * hop a transmission and a validation, each repair a wait for the holder's heartbeat (its phase is
   * uniform) and two small control messages more.
   */
  path (hops: number, repairs: number, bytes: number): number {
    let total = 0
    for (let h = 0; h < hops; h++) total += this.oneWay(bytes) + HOP_PROCESSING_MS
    for (let r = 0; r < repairs; r++) total += this.random.next() * GOSSIPSUB.heartbeatMs + this.oneWay(64) + this.oneWay(64)
    return total
  }

  /** A reconnection and its sync catch-up, until the missed records are stored. */
  sync (bytes: number): number {
    let total = 0
    for (let i = 0; i < 2 * SYNC_ROUND_TRIPS - 1; i++) total += this.oneWay(64)
    return total + this.oneWay(bytes) + HOP_PROCESSING_MS
  }
}
