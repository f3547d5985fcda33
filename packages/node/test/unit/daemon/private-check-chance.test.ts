import { describe, expect, it } from 'vitest'
import { nodeRandom } from '../../../src/daemon/private-checks.js'
import { holdersEstimate, privateCheckProbability } from '../../../src/draw/index.js'

/*
 * witness-draw-v1 W8: a node's coin for a private check is its own randomness, uniform in [0, 1), and
 * the probability is privateChecks over the memory's holders, N̂ over the node's shard count.
 */

describe('the private check\'s chance', () => {
  it('the node\'s randomness is uniform in [0, 1)', () => {
    const draws = Array.from({ length: 20_000 }, nodeRandom)
    for (const x of draws) {
      expect(x).toBeGreaterThanOrEqual(0)
      expect(x).toBeLessThan(1)
    }
    // Each tenth of [0, 1) holds about 2,000 of them (binomial sd ≈ 42: 300 is > 7 sd).
    const tenths = new Array<number>(10).fill(0)
    for (const x of draws) tenths[Math.floor(x * 10)]!++
    for (const n of tenths) expect(Math.abs(n - 2_000)).toBeLessThan(300)
  })

  it('the holders are N̂ over the node\'s shard count: its setting when set, else the count of its estimate', () => {
    expect(holdersEstimate(32, 4)).toBe(8)
    expect(privateCheckProbability(holdersEstimate(32, 4))).toBe(1 / 8)
    expect(holdersEstimate(32)).toBe(holdersEstimate(32))
    expect(holdersEstimate(100_000)).toBe(holdersEstimate(100_000))
    expect(privateCheckProbability(holdersEstimate(1, 1))).toBe(1)
  })
})
