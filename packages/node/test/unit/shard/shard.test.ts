import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { acceptsShardCount, isShardCount, SHARDS, shardCountFor, shardCountsAccepted, shardCountsHeard, shardOf } from '../../../src/shard/index.js'
import { readVectorFile } from '../identity/vectors.js'

interface ShardVectors {
  agents_per_shard: number
  max_count: number
  shards: Array<{ did: string, by_count: Record<string, number> }>
  counts: Array<{ population: number, count: number }>
}

const FILE = readVectorFile<ShardVectors>('shard/shards.json')

describe('shards (protocols/vectors/shard/shards.json)', () => {
  it('uses the constants the vectors were made with', () => {
    expect(SHARDS.agentsPerShard).toBe(FILE.agents_per_shard)
    expect(SHARDS.maxCount).toBe(FILE.max_count)
  })

  it('places every vector did in its shard under every count', () => {
    for (const vector of FILE.shards) {
      for (const [count, shard] of Object.entries(vector.by_count)) expect(shardOf(vector.did, Number(count)), `${vector.did} under ${count}`).toBe(shard)
    }
  })

  it('gives every vector population its shard count', () => {
    for (const vector of FILE.counts) expect(shardCountFor(vector.population), String(vector.population)).toBe(vector.count)
  })
})

describe('shardOf', () => {
  it('refines: the shard under 2c, modulo c, is the shard under c', () => {
    fc.assert(fc.property(fc.string(), fc.integer({ min: 0, max: 11 }), (did, exponent) => {
      const count = 2 ** exponent
      expect(shardOf(did, count * 2) % count).toBe(shardOf(did, count))
    }), { numRuns: 2000 })
  })

  it('spreads agents evenly: 64,000 dids over 64 shards stay within 15% of 1,000 each', () => {
    const sizes = new Array<number>(64).fill(0)
    for (let i = 0; i < 64_000; i++) sizes[shardOf(`did:key:agent-${i}`, 64)]! += 1
    expect(Math.min(...sizes)).toBeGreaterThan(850)
    expect(Math.max(...sizes)).toBeLessThan(1150)
  })

  it('refuses a count that is not a power of two within 1..maxCount', () => {
    for (const count of [0, 3, 6, -2, 1.5, Number.NaN, SHARDS.maxCount * 2]) {
      expect(() => shardOf('did:key:z', count)).toThrow(expect.objectContaining({ code: 'USAGE' }))
      expect(isShardCount(count)).toBe(false)
    }
  })
})

describe('shardCountFor', () => {
  it('keeps each shard between agentsPerShard and twice that, from one shard up to maxCount', () => {
    fc.assert(fc.property(fc.integer({ min: 2 * SHARDS.agentsPerShard, max: SHARDS.agentsPerShard * SHARDS.maxCount }), (population) => {
      const count = shardCountFor(population)
      expect(isShardCount(count)).toBe(true)
      expect(population / count).toBeGreaterThanOrEqual(SHARDS.agentsPerShard)
      expect(population / count).toBeLessThan(2 * SHARDS.agentsPerShard)
    }), { numRuns: 2000 })
  })

  it('is one shard for a small or unknown network, and maxCount at most', () => {
    expect(shardCountFor(0)).toBe(1)
    expect(shardCountFor(Number.NaN)).toBe(1)
    expect(shardCountFor(Number.POSITIVE_INFINITY)).toBe(1)
    expect(shardCountFor(1e12)).toBe(SHARDS.maxCount)
  })
})

describe('acceptsShardCount', () => {
  it('accepts a count within the slack either way, and nothing else', () => {
    expect(shardCountsAccepted(64)).toEqual([32, 64, 128])
    expect(shardCountsAccepted(1)).toEqual([1, 2])
    expect(shardCountsAccepted(SHARDS.maxCount)).toEqual([SHARDS.maxCount / 2, SHARDS.maxCount])
    expect(acceptsShardCount(16, 64)).toBe(false)
    expect(acceptsShardCount(256, 64)).toBe(false)
    expect(acceptsShardCount(3, 4)).toBe(false)
    expect(acceptsShardCount(4, 3)).toBe(false)
  })
})

describe('shardCountsHeard', () => {
  it('is every accepted count from count 2 on, and count 1 alone until an estimate within the slack reaches count 2', () => {
    const threshold = 2 * SHARDS.agentsPerShard
    expect(shardCountsHeard(1)).toEqual([1])
    expect(shardCountsHeard(threshold / SHARDS.countSlack - 1)).toEqual([1])
    expect(shardCountsHeard(threshold / SHARDS.countSlack)).toEqual([1, 2])
    expect(shardCountsHeard(threshold)).toEqual([1, 2, 4])
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 * SHARDS.agentsPerShard * SHARDS.maxCount }), (estimate) => {
      const own = shardCountFor(estimate)
      const heard = shardCountsHeard(estimate)
      expect(heard).toContain(own)
      expect(heard.every((count) => acceptsShardCount(count, own))).toBe(true)
      // Every peer whose estimate is within the slack publishes under a count heard here.
      for (const peer of [estimate / SHARDS.countSlack, estimate * SHARDS.countSlack]) expect(heard).toContain(shardCountFor(peer))
      // At the largest count, an estimate of twice its threshold or more has no peer within the slack under c/2.
      if (own > 1 && estimate < 2 * SHARDS.agentsPerShard * SHARDS.maxCount) expect(heard).toEqual(shardCountsAccepted(own))
    }))
    expect(shardCountsHeard(2 * SHARDS.agentsPerShard * SHARDS.maxCount)).toEqual([SHARDS.maxCount])
  })
})
