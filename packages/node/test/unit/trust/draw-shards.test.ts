import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { proveDraw, verifyDraw } from '../../../src/draw/index.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import { shardOf } from '../../../src/shard/index.js'
import { countEvidence, drawnAttestations, type AcceptedAttestation } from '../../../src/trust/index.js'
import { attestationEvidence, cid, did, memoryEvidence } from './fixtures.js'

/*
 * The draw within a shard (witness-draw-v1 W12) as the trust core counts it: at a node whose network
 * estimate is 512 (count 4, a shard of about 128 agents), a draw within 4 shards at population 128 by
 * a witness of the author's shard counts; the same draw by a witness of another shard, a draw stated
 * for the whole network at a shard's population, and a shard population below 128 / 2 do not. Real
 * ECVRF proofs (fixed seeds).
 */

const utf8 = new TextEncoder()
const MEMORY = cid('sharded-memory')
const AUTHOR = did('sharded-author')
const ESTIMATE = 512
const COUNT = 4
const memory = memoryEvidence({ id: MEMORY, author: AUTHOR })

interface Witness { seed: Uint8Array, did: string, publicKey: Uint8Array }

/** The first witness (labels prefix0, prefix1, …) drawn for MEMORY at `population` whose shard under COUNT is (or is not) the author's. */
function witnessWhere (prefix: string, population: number, inAuthorsShard: boolean): Witness {
  for (let i = 0; i < 3000; i++) {
    const seed = sha256(utf8.encode(`witness:${prefix}${i}`))
    const { publicKey } = keyPairFromSeed(seed)
    const w = { seed, did: encodeDidKey(publicKey), publicKey }
    if ((shardOf(w.did, COUNT) === shardOf(AUTHOR, COUNT)) === inAuthorsShard && proveDraw(seed, MEMORY, population).drawn) return w
  }
  throw new Error(`no witness ${prefix}*`)
}

function drawn (id: string, w: Witness, population: number, shards?: number): AcceptedAttestation {
  const { proof } = proveDraw(w.seed, MEMORY, population)
  const evidence = attestationEvidence({ id: cid(id), witness: w.did, memory: MEMORY })
  evidence.record.draw = { population, proof: encodeSignature(proof), ...(shards === undefined ? {} : { shards }) }
  return { ...evidence, at: Date.parse(evidence.record.witnessed_at), drawFraction: verifyDraw(w.publicKey, MEMORY, proof) as number }
}

describe('drawn attestations within shards (witness-draw-v1 W12)', () => {
  const inShard = witnessWhere('in', ESTIMATE / COUNT, true)
  const outside = witnessWhere('out', ESTIMATE / COUNT, false)

  it('counts a draw within the node\'s count by a witness of the author\'s shard, at the shard\'s population', () => {
    const a = drawn('a', inShard, 128, COUNT)
    expect(drawnAttestations([a], ESTIMATE, memory)).toEqual({ drawn: new Set([a.id]), refusals: new Map() })
    // A count within a factor 2 of the node's is accepted too: within 8 shards, a population of 64 ≥ (512 / 8) / 2.
    if (shardOf(inShard.did, 8) === shardOf(AUTHOR, 8) && proveDraw(inShard.seed, MEMORY, 64).drawn) {
      const finer = drawn('f', inShard, 64, 8)
      expect(drawnAttestations([finer], ESTIMATE, memory).drawn.has(finer.id)).toBe(true)
    }
  })

  it('refuses a witness of another shard, a whole-network draw at a shard\'s population, and a population below the shard\'s estimate / 2', () => {
    const other = drawn('o', outside, 128, COUNT)
    const whole = drawn('w', inShard, 128)
    const low = drawn('l', inShard, 128, COUNT)
    low.record.draw = { ...low.record.draw!, population: 63 }
    const { drawn: counted, refusals } = drawnAttestations([other, whole, low], ESTIMATE, memory)
    expect(counted.size).toBe(0)
    expect(refusals.get(other.id)).toBe('its witness is not in the author\'s shard under 4 shards')
    expect(refusals.get(whole.id)).toBe('its draw is within 1 shard(s), and this node\'s count is 4 (accepted: 2 to 8)')
    expect(refusals.get(low.id)).toBe('its draw claims a population of 63 in one of 4 shards, below this node\'s estimate 128 / 2')
  })

  it('leaves a network under 256 agents as it was: a draw without shards at the network\'s population counts', () => {
    const a = drawn('s', inShard, 128)
    expect(drawnAttestations([a], 200, memory).drawn.has(a.id)).toBe(true)
  })

  it('judges the stated count against the node\'s set count: 32 nodes set to 4 shards count each other\'s draws', () => {
    // N̂ = 32 alone gives count 1, which refuses a draw within 4 shards; the node's set count 4 accepts it.
    const a = drawn('set', inShard, 8, COUNT)
    const input = { memory, attestations: [a], anchors: [], now: Date.parse('2026-06-01T00:00:00Z'), populationEstimate: 32 }
    expect(countEvidence({ ...input, shardCount: COUNT }).drawn.has(a.id)).toBe(true)
    const derived = countEvidence(input)
    expect(derived.drawn.size).toBe(0)
    expect(derived.drawRefusals.get(a.id)).toBe('its draw is within 4 shard(s), and this node\'s count is 1 (accepted: 1 to 2)')
    expect(drawnAttestations([a], 32, memory, undefined, COUNT).drawn.has(a.id)).toBe(true)
    expect(() => countEvidence({ ...input, shardCount: 3 })).toThrow(/shardCount must be a power of two/)
  })
})
