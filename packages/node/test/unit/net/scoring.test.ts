import { describe, expect, it } from 'vitest'
import { PENALTY_HALF_LIFE_MS, PeerPenalties, SCORE_THRESHOLDS, TOPICS, messageIdOf } from '../../../src/net/index.js'
import { messageIdToString } from '../../../src/net/gossip/message-id.js'

describe('peer scoring and message ids (gossip-v1 §3, §6)', () => {
  it('orders the thresholds as gossipsub requires: graylist ≤ publish ≤ gossip ≤ 0', () => {
    const t = SCORE_THRESHOLDS
    expect(t.graylistThreshold).toBeLessThanOrEqual(t.publishThreshold)
    expect(t.publishThreshold).toBeLessThanOrEqual(t.gossipThreshold)
    expect(t.gossipThreshold).toBeLessThanOrEqual(0)
    expect(t.acceptPXThreshold).toBeGreaterThanOrEqual(0)
  })

  it('adds penalties and halves them every half-life', () => {
    let now = 0
    const penalties = new PeerPenalties(() => now)
    expect(penalties.add('p', 50)).toBe(50)
    now += PENALTY_HALF_LIFE_MS
    expect(penalties.total('p')).toBeCloseTo(25)
    expect(penalties.add('p', 50)).toBeCloseTo(75)
    expect(penalties.score('p')).toBeCloseTo(-75)
    now += 20 * PENALTY_HALF_LIFE_MS
    expect(penalties.total('p')).toBe(0)
  })

  it('derives the message id from topic and payload: the same bytes on another topic are another message', () => {
    const data = Uint8Array.of(1, 2, 3)
    const id = messageIdToString(messageIdOf(TOPICS.memories, data))
    expect(messageIdToString(messageIdOf(TOPICS.memories, Uint8Array.of(1, 2, 3)))).toBe(id)
    expect(messageIdToString(messageIdOf(TOPICS.attestations, Uint8Array.of(1, 2, 3)))).not.toBe(id)
    expect(messageIdToString(messageIdOf(TOPICS.attestations, data))).not.toBe(id) // cached per buffer, keyed by topic
  })
})
