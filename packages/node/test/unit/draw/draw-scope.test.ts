import { describe, expect, it } from 'vitest'
import { drawScopeOf, drawShardRefusal, holdersEstimate, privateCheckProbability, shardEstimate, statedPopulation, WITNESS_DRAW, type PopulationClaim } from '../../../src/draw/index.js'
import { shardOf } from '../../../src/shard/index.js'

/* witness-draw-v1 W12, pure: the scope a witness draws in, which shard counts a node accepts, N̂ from stated shards. */

const dids = Array.from({ length: 64 }, (_, i) => `did:key:z6Mk-test-${i}`)
const author = dids[0]!

describe('drawScopeOf', () => {
  it('draws over the whole network below 160 agents (count 1)', () => {
    expect(drawScopeOf(159, dids[1]!, author)).toEqual({ shards: 1, population: 159 })
    expect(drawScopeOf(0, dids[1]!, author)).toEqual({ shards: 1, population: 1 })
  })

  it('draws within the author\'s shard above: the shard\'s estimate, and no draw for a witness of another shard', () => {
    for (const witness of dids.slice(1)) {
      const scope = drawScopeOf(600, witness, author)
      if (shardOf(witness, 4) === shardOf(author, 4)) expect(scope).toEqual({ shards: 4, population: 150 })
      else expect(scope).toBeUndefined()
    }
  })
})

describe('drawShardRefusal', () => {
  const same = dids.slice(1).find((d) => shardOf(d, 8) === shardOf(author, 8))!
  it('accepts counts within a factor 2 of the node\'s own, for a witness of the author\'s shard', () => {
    expect(drawShardRefusal(1024, 8, same, author)).toBeUndefined() // own count 8
    expect(drawShardRefusal(1024, 4, same, author)).toBeUndefined()
    expect(drawShardRefusal(2048, 8, same, author)).toBeUndefined() // own 16
    expect(drawShardRefusal(1024, 32, same, author)).toMatch(/within 32 shard\(s\), and this node's count is 8/)
    expect(drawShardRefusal(1024, undefined, same, author)).toMatch(/within 1 shard\(s\)/)
    expect(drawShardRefusal(300, undefined, same, author)).toBeUndefined() // own 2: 1 is accepted
  })

  it('judges against the node\'s own count when its node was set to one (the shard-count setting)', () => {
    const inFour = dids.slice(1).find((d) => shardOf(d, 4) === shardOf(author, 4) && shardOf(d, 16) === shardOf(author, 16))!
    // 32 nodes set to 4 shards: N̂ = 32 alone gives count 1, which refuses a draw within 4.
    expect(drawShardRefusal(32, 4, inFour, author)).toMatch(/within 4 shard\(s\), and this node's count is 1/)
    expect(drawShardRefusal(32, 4, inFour, author, 4)).toBeUndefined()
    expect(drawShardRefusal(32, 2, inFour, author, 4)).toBeUndefined()
    expect(drawShardRefusal(32, 16, inFour, author, 4)).toMatch(/within 16 shard\(s\), and this node's count is 4 \(accepted: 2 to 8\)/)
    expect(drawShardRefusal(32, undefined, inFour, author, 4)).toMatch(/within 1 shard\(s\)/)
    expect(drawShardRefusal(1024, 8, inFour, author, undefined)).toBe(drawShardRefusal(1024, 8, inFour, author)) // absent: derived
  })

  it('judges a population against the shard\'s share of the estimate', () => {
    expect(shardEstimate(1024, 8)).toBe(128)
    expect(shardEstimate(1024, undefined)).toBe(1024)
  })

  it('expects a memory\'s holders to be its shard\'s agents, so about one of them checks it privately (W8)', () => {
    expect(holdersEstimate(150)).toBe(150) // one shard: the whole network holds it
    expect(holdersEstimate(600)).toBe(150) // 4 shards
    expect(holdersEstimate(10_000)).toBe(10_000 / 64)
    expect(holdersEstimate(32, 4)).toBe(8) // a set count: its shard's share of N̂
    expect(holdersEstimate(600, undefined)).toBe(150)
    for (const estimate of [150, 600, 10_000, 100_000]) {
      expect(holdersEstimate(estimate) * privateCheckProbability(holdersEstimate(estimate))).toBeCloseTo(WITNESS_DRAW.privateChecks, 12)
    }
  })
})

describe('statedPopulation with shards (W6a, W12)', () => {
  it('takes population × shards as the network a claim speaks for', () => {
    const claims: PopulationClaim[] = [
      { id: 'a', witness: 'w1', population: 128, shards: 4, at: 3, proof: '' },
      { id: 'b', witness: 'w2', population: 500, at: 2, proof: '' },
      { id: 'c', witness: 'w3', population: 64, shards: 8, at: 1, proof: '' }
    ]
    // Every claim drawn (fraction 0), every witness reputable: the lower median of 512, 500, 512.
    expect(statedPopulation(claims, { reputation: () => 1, fractionOf: () => 0 })).toBe(512)
  })
})
