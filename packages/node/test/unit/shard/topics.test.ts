import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TOPICS } from '../../../src/net/index.js'
import {
  SHARD_TOPIC_KINDS, SHARDS, homeShards, parseShardTopic, shardCountsAccepted, shardCountsHeard, shardOf, shardTopic, shardTopicsOf
} from '../../../src/shard/index.js'
import { createAgent } from '../../fixtures/records.js'

const dids = Array.from({ length: 40 }, (_, i) => createAgent(i + 1).did)

describe('shard topics (gossip-v1 "Shards")', () => {
  it('names count 1 with the network-wide topics of gossip-v1 §2, so a small network is today\'s', () => {
    expect(shardTopic(1, 0, 'memories')).toBe(TOPICS.memories)
    expect(shardTopic(1, 0, 'witness-requests')).toBe(TOPICS.witnessRequests)
    expect(shardTopic(1, 0, 'attestations')).toBe(TOPICS.attestations)
    expect(shardTopic(1, 0, 'anchors')).toBe(TOPICS.anchors)
    expect(shardTopic(1, 0, 'checkpoints')).toBe(TOPICS.checkpoints)
    expect(parseShardTopic(TOPICS.memories)).toEqual({ count: 1, shard: 0, kind: 'memories' })
    expect(parseShardTopic(TOPICS.keyEvents)).toBeUndefined()
  })

  it('names a shard of a larger count with its count and index, and parses back only that spelling', () => {
    expect(shardTopic(8, 5, 'attestations')).toBe('isnad/v1/shards/8/5/attestations')
    fc.assert(fc.property(fc.integer({ min: 0, max: 12 }), fc.nat(), fc.constantFrom(...SHARD_TOPIC_KINDS), (exponent, n, kind) => {
      const count = 2 ** exponent
      const shard = n % count
      expect(parseShardTopic(shardTopic(count, shard, kind))).toEqual({ count, shard, kind })
    }))
    for (const topic of ['isnad/v1/shards/1/0/memories', 'isnad/v1/shards/8/8/memories', 'isnad/v1/shards/08/1/memories',
      'isnad/v1/shards/8/01/memories', 'isnad/v1/shards/6/1/memories', 'isnad/v1/shards/8/1/key-events', 'isnad/v1/shards/8/1',
      'isnad/v1/shards/8192/1/memories', 'isnad/v2/shards/8/1/memories', 'isnad/v1/other']) {
      expect(parseShardTopic(topic), topic).toBeUndefined()
    }
    expect(() => shardTopic(3, 0, 'memories')).toThrow(/power of two/)
    expect(() => shardTopic(4, 4, 'memories')).toThrow(/not one of the 4 shards/)
  })
})

describe('home shards', () => {
  it('are the shards of the agents then the followed authors, the first max-shards distinct ones, under every accepted count', () => {
    const home = homeShards(dids, 16, 3, 'peer')
    const expected = [...new Set(dids.map((did) => shardOf(did, 16)))].slice(0, 3)
    expect(home.shards).toEqual([...expected].sort((a, b) => a - b))
    expect(home.kept.every((did) => expected.includes(shardOf(did, 16)))).toBe(true)
    expect(home.left.every((did) => !expected.includes(shardOf(did, 16)))).toBe(true)
    expect(home.kept.length + home.left.length).toBe(dids.length)
    expect(home.byCount.map((c) => c.count)).toEqual(shardCountsAccepted(16))
    // Under 2c a kept did's shard refines its shard under c; under c/2 it coarsens it.
    const finer = home.byCount.find((c) => c.count === 32)!
    for (const shard of finer.shards) expect(expected).toContain(shard % 16)
    const coarser = home.byCount.find((c) => c.count === 8)!
    expect(coarser.shards).toEqual([...new Set(expected.map((s) => s % 8))].sort((a, b) => a - b))
  })

  it('places a node with no agent and no follow in the shard of its peer id', () => {
    const home = homeShards([], 4, 8, 'the-peer')
    expect(home.shards).toEqual([shardOf('the-peer', 4)])
    expect(home.kept).toEqual([])
    expect(shardTopicsOf(home)).toContain(shardTopic(4, shardOf('the-peer', 4), 'memories'))
  })

  it('subscribes a count-1 node to today\'s topics (and its shards of count 2)', () => {
    const topics = shardTopicsOf(homeShards([dids[0]!], 1, 8, 'p'))
    for (const topic of [TOPICS.memories, TOPICS.witnessRequests, TOPICS.attestations, TOPICS.anchors, TOPICS.checkpoints]) expect(topics).toContain(topic)
    expect(topics).toContain(shardTopic(2, shardOf(dids[0]!, 2), 'memories'))
    expect(topics).not.toContain(shardTopic(2, 1 - shardOf(dids[0]!, 2), 'memories'))
  })

  it('listens on the counts it is given: a count-1 node whose estimate is small joins count 1\'s five topics only', () => {
    const topics = shardTopicsOf(homeShards([dids[0]!], 1, 8, 'p', shardCountsHeard(50)))
    expect(topics.sort()).toEqual([TOPICS.anchors, TOPICS.attestations, TOPICS.checkpoints, TOPICS.memories, TOPICS.witnessRequests].sort())
    expect(homeShards(dids, 16, 3, 'p', shardCountsHeard(16 * SHARDS.agentsPerShard * 1.5)).byCount.map((c) => c.count)).toEqual([8, 16, 32])
    expect(() => homeShards(dids, 16, 3, 'p', [32])).toThrow(/its own count/)
    expect(() => homeShards(dids, 16, 3, 'p', [16, 64])).toThrow(/counts it accepts/)
  })

  it('refuses a max-shards below 1', () => {
    expect(() => homeShards(dids, 4, 0, 'p')).toThrow(/max-shards/)
  })
})
