import type { PeerScoreParams, PeerScoreThresholds, TopicScoreParams } from '@libp2p/gossipsub/score'
import { ACCEPT_PX_THRESHOLD, ALL_TOPICS, GOSSIP_THRESHOLD, GRAYLIST_THRESHOLD, INVALID_MESSAGE_DECAY, INVALID_MESSAGE_WEIGHT, OPPORTUNISTIC_GRAFT_THRESHOLD, PENALTY_HALF_LIFE_MS, PUBLISH_THRESHOLD } from './constants.js'

/** gossip-v1 §6: the thresholds every isnad node uses. */
export const SCORE_THRESHOLDS: PeerScoreThresholds = {
  gossipThreshold: GOSSIP_THRESHOLD,
  publishThreshold: PUBLISH_THRESHOLD,
  graylistThreshold: GRAYLIST_THRESHOLD,
  acceptPXThreshold: ACCEPT_PX_THRESHOLD,
  opportunisticGraftThreshold: OPPORTUNISTIC_GRAFT_THRESHOLD
}

/**
 * gossip-v1 §6, per topic. Time in mesh (P1) and first deliveries (P2) earn a little; mesh
 * delivery rates (P3, P3b) are off, since isnad topics carry few messages and a quiet honest peer
 * must not be punished; invalid messages (P4) cost much, so a peer sending records with bad
 * signatures falls below the gossip threshold at the first and is graylisted at the second.
 */
export const TOPIC_PARAMS: TopicScoreParams = {
  topicWeight: 1,
  timeInMeshWeight: 0.001,
  timeInMeshQuantum: 1000,
  timeInMeshCap: 3600,
  firstMessageDeliveriesWeight: 0.5,
  firstMessageDeliveriesDecay: 0.9,
  firstMessageDeliveriesCap: 20,
  meshMessageDeliveriesWeight: 0,
  meshMessageDeliveriesDecay: 0.5,
  meshMessageDeliveriesCap: 100,
  meshMessageDeliveriesThreshold: 1,
  meshMessageDeliveriesWindow: 10,
  meshMessageDeliveriesActivation: 5000,
  meshFailurePenaltyWeight: 0,
  meshFailurePenaltyDecay: 0.5,
  invalidMessageDeliveriesWeight: INVALID_MESSAGE_WEIGHT,
  invalidMessageDeliveriesDecay: INVALID_MESSAGE_DECAY
}

export interface ScoreParamsInit {
  /** P5: the application's opinion of a peer (≤ 0 here: the negated penalties). */
  appSpecificScore: (peerId: string) => number
  /** IPs exempt from the IP-colocation penalty (P6), e.g. loopback in tests and simulations. */
  ipColocationWhitelist: readonly string[]
}

export function createScoreParams (init: ScoreParamsInit): Partial<PeerScoreParams> {
  return {
    // gossip-v1 §6: every topic alike; a shard's topics get the same when the node joins them (topic-admission.ts).
    topics: Object.fromEntries(ALL_TOPICS.map((topic) => [topic, TOPIC_PARAMS])),
    topicScoreCap: 10,
    appSpecificScore: init.appSpecificScore,
    appSpecificWeight: 1,
    IPColocationFactorWeight: -5,
    IPColocationFactorThreshold: 10,
    IPColocationFactorWhitelist: new Set(init.ipColocationWhitelist),
    behaviourPenaltyWeight: -10,
    behaviourPenaltyThreshold: 0,
    behaviourPenaltyDecay: 0.2,
    decayInterval: 1000,
    decayToZero: 0.1,
    retainScore: 3600 * 1000
  }
}

/**
 * Application penalties per peer (gossip-v1 §6, fetch-v1 §5, sync-v1 §6): each violation adds a
 * penalty that halves every PENALTY_HALF_LIFE_MS. Bounded by the peers seen; entries that decayed
 * to nothing are dropped.
 */
export class PeerPenalties {
  private readonly penalties = new Map<string, { amount: number, at: number }>()

  constructor (private readonly clock: () => number) {}

  /** Adds `amount` for `peerId`; returns the peer's total after decay. */
  add (peerId: string, amount: number): number {
    const total = this.total(peerId) + amount
    this.penalties.set(peerId, { amount: total, at: this.clock() })
    return total
  }

  total (peerId: string): number {
    const entry = this.penalties.get(peerId)
    if (entry === undefined) return 0
    const decayed = entry.amount * Math.pow(0.5, (this.clock() - entry.at) / PENALTY_HALF_LIFE_MS)
    if (decayed < 0.01) {
      this.penalties.delete(peerId)
      return 0
    }
    return decayed
  }

  /** The P5 score: minus the total. */
  score (peerId: string): number {
    return -this.total(peerId)
  }
}

/** @default 'isnad-useful' — the libp2p peer tag of peers that delivered valid messages. */
export const USEFUL_PEER_TAG = 'isnad-useful'
/** @default 50 — its value: gossipsub tags mesh peers with 100, an untagged stranger has 0. */
export const USEFUL_PEER_TAG_VALUE = 50
/** @default 1800000 — how long the tag lasts after the peer's last valid message. */
export const USEFUL_PEER_TAG_TTL_MS = 30 * 60 * 1000
/** @default 60000 — a peer's tag is renewed at most this often (peer store writes are not free). */
export const USEFUL_PEER_RETAG_MS = 60 * 1000

/**
 * Eclipse resistance (gossip-v1 §6, docs/threat-model.md): when connections exceed the limit,
 * libp2p's pruner closes those of least tag value first. Peers that delivered valid records are
 * tagged, so a crowd of fresh Sybil connections is pruned before the peers that proved useful.
 */
export class UsefulPeers {
  private readonly tagged = new Map<string, number>()

  constructor (
    private readonly tag: (peerId: string, ttlMs: number) => Promise<void>,
    private readonly clock: () => number,
    private readonly maxPeers = 4096
  ) {}

  /** True when `peerId` delivered a valid message within USEFUL_PEER_TAG_TTL_MS. */
  isUseful (peerId: string): boolean {
    const last = this.tagged.get(peerId)
    return last !== undefined && this.clock() - last < USEFUL_PEER_TAG_TTL_MS
  }

  /** Records that `peerId` delivered a valid message; tags it unless it was tagged recently. */
  markUseful (peerId: string): void {
    const now = this.clock()
    const last = this.tagged.get(peerId)
    if (last !== undefined && now - last < USEFUL_PEER_RETAG_MS) return
    this.tagged.delete(peerId)
    if (this.tagged.size >= this.maxPeers) {
      const oldest = this.tagged.keys().next()
      if (oldest.done !== true) this.tagged.delete(oldest.value)
    }
    this.tagged.set(peerId, now)
    this.tag(peerId, USEFUL_PEER_TAG_TTL_MS).catch(() => { this.tagged.delete(peerId) })
  }
}
