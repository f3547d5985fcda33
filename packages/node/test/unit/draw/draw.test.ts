import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  acceptsPopulation, DRAW_INPUT_TAG, drawFraction, drawFractionOfProof, drawInput, isDrawn, privateCheckProbability,
  proveDraw, verifyDraw, WITNESS_DRAW
} from '../../../src/draw/index.js'
import { isIsnadError } from '../../../src/errors/index.js'
import { ecvrfProofToHash, publicKeyOfSeed } from '../../../src/identity/index.js'
import { NODE_RECORD_FAST_PATHS } from '../../../src/fast-crypto/index.js'
import { fromHex, readVectorFile, toHex } from '../identity/vectors.js'

interface DrawVector {
  id: string
  seed: string
  public_key: string
  memory: string
  alpha: string
  proof: string
  beta: string
  fraction_numerator: string
  fraction: number
  drawn: Record<string, boolean>
}

const FILE = readVectorFile<{ size: number, vectors: DrawVector[] }>('draw/draw.json')
const MEMORY = (FILE.vectors[0] as DrawVector).memory
const OTHER_MEMORY = (FILE.vectors.find((v) => v.memory !== MEMORY) as DrawVector).memory
const SCALE = 2 ** 53

function thrownCode (run: () => unknown): string {
  try {
    run()
    return 'no throw'
  } catch (err) {
    return isIsnadError(err) ? err.code : `non-IsnadError ${String(err)}`
  }
}

/** A 64-byte beta whose first 53 bits are m (and whose other bits are `rest`). */
function betaWith (m: bigint, rest = 0): Uint8Array {
  const beta = new Uint8Array(64).fill(rest)
  const top = m << 11n | BigInt(rest === 0 ? 0 : 0x7ff)
  for (let i = 0; i < 8; i++) beta[i] = Number((top >> BigInt(56 - 8 * i)) & 0xffn)
  return beta
}

describe('WITNESS_DRAW', () => {
  it('has the protocol values of witness-draw-v1 §7', () => {
    expect(WITNESS_DRAW).toEqual({ size: 5, populationSlack: 2, privateChecks: 1, privateCheckDelayMs: 10_000, perAuthorPerHour: 30, perMinute: 60 })
    expect(Object.isFrozen(WITNESS_DRAW)).toBe(true)
    expect(FILE.size).toBe(WITNESS_DRAW.size)
  })
})

describe('draw vectors (protocols/vectors/draw/draw.json, made by an independent ECVRF)', () => {
  it('has vectors for three keys and two memories', () => {
    expect(FILE.vectors.length).toBe(6)
  })

  for (const v of FILE.vectors) {
    it(`${v.id}: the draw input, proof, fraction and verdicts`, () => {
      expect(toHex(drawInput(v.memory)), v.id).toBe(v.alpha)
      const drawn = proveDraw(fromHex(v.seed), v.memory, 1000)
      expect(toHex(drawn.proof), v.id).toBe(v.proof)
      expect(toHex(ecvrfProofToHash(drawn.proof)), v.id).toBe(v.beta)
      expect(drawn.fraction, v.id).toBe(v.fraction)
      expect(drawn.fraction * SCALE, v.id).toBe(Number(v.fraction_numerator))
      expect(drawn.population, v.id).toBe(1000)
      expect(drawn.drawn, v.id).toBe(v.drawn['1000'])
      expect(drawFraction(fromHex(v.beta)), v.id).toBe(v.fraction)
      expect(verifyDraw(fromHex(v.public_key), v.memory, fromHex(v.proof)), v.id).toBe(v.fraction)
      expect(drawFractionOfProof(fromHex(v.proof)), v.id).toBe(v.fraction)
      for (const [population, expected] of Object.entries(v.drawn)) {
        expect(isDrawn(v.fraction, Number(population)), `${v.id} at population ${population}`).toBe(expected)
      }
    })

    it(`${v.id}: the proof is for its memory and its key only`, () => {
      const other = v.memory === MEMORY ? OTHER_MEMORY : MEMORY
      expect(verifyDraw(fromHex(v.public_key), other, fromHex(v.proof)), v.id).toBeUndefined()
      for (const w of FILE.vectors.filter((w) => w.public_key !== v.public_key)) {
        expect(verifyDraw(fromHex(w.public_key), v.memory, fromHex(v.proof)), `${v.id} under ${w.id}'s key`).toBeUndefined()
      }
    })
  }
})

describe('drawInput', () => {
  it('is the tag then the CID bytes (witness-draw-v1 §3)', () => {
    const input = drawInput(MEMORY)
    expect(new TextDecoder().decode(input.subarray(0, 14))).toBe(DRAW_INPUT_TAG)
    expect(input.length).toBe(14 + 36)
    expect(toHex(input.subarray(14, 18))).toBe('01711220')
  })

  it('throws CID_INVALID for anything but a canonical record CID', () => {
    for (const bad of ['', 'bafy', MEMORY.toUpperCase(), MEMORY + 'a', 'bafkreifcoyg34ljvw3iaxh4x6svj4hn3ch3viyqjdbrp3p2e5rxdeeia3q']) {
      expect(thrownCode(() => drawInput(bad)), bad).toBe('CID_INVALID')
    }
    expect(thrownCode(() => drawInput(42 as unknown as string))).toBe('CID_INVALID')
  })
})

describe('drawFraction', () => {
  it('is the top 53 bits of beta over 2^53, in [0, 1)', () => {
    expect(drawFraction(new Uint8Array(64))).toBe(0)
    expect(drawFraction(new Uint8Array(64).fill(0xff))).toBe((SCALE - 1) / SCALE)
    expect(drawFraction(betaWith(1n))).toBe(1 / SCALE)
    expect(drawFraction(betaWith(1n, 0xff))).toBe(1 / SCALE)
    expect(drawFraction(betaWith(2n ** 52n))).toBe(0.5)
  })

  it('reads only the first 8 bytes, big-endian', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (beta) => {
      const m = BigInt('0x' + toHex(beta.subarray(0, 8))) >> 11n
      expect(drawFraction(beta)).toBe(Number(m) / SCALE)
      expect(drawFraction(beta)).toBeLessThan(1)
    }), { numRuns: 500 })
  })

  it('throws PROOF_MALFORMED unless beta is 64 bytes', () => {
    expect(thrownCode(() => drawFraction(new Uint8Array(63)))).toBe('PROOF_MALFORMED')
    expect(thrownCode(() => drawFraction(new Uint8Array(32)))).toBe('PROOF_MALFORMED')
  })
})

describe('isDrawn (witness-draw-v1 §5: m · population < size · 2^53)', () => {
  it('draws below size / population, not at it', () => {
    expect(isDrawn(0.5, 10)).toBe(false)
    expect(isDrawn(0.5 - 1 / SCALE, 10)).toBe(true)
    expect(isDrawn(0, 10)).toBe(true)
    expect(isDrawn(0, Number.MAX_SAFE_INTEGER)).toBe(true)
    // 5 · (2^53 − 1) < 5 · 2^53 ≤ 6 · (2^53 − 1)
    expect(isDrawn(5 / SCALE, Number.MAX_SAFE_INTEGER)).toBe(true)
    expect(isDrawn(6 / SCALE, Number.MAX_SAFE_INTEGER)).toBe(false)
  })

  it('is exact where size / population is not a double: population 7', () => {
    // The largest m with 7m < 5 · 2^53.
    const last = (5n * 2n ** 53n - 1n) / 7n
    expect(isDrawn(Number(last) / SCALE, 7)).toBe(true)
    expect(isDrawn(Number(last + 1n) / SCALE, 7)).toBe(false)
  })

  it('is exact at a population of 2^32 − 1', () => {
    const population = 2 ** 32 - 1
    const last = (5n * 2n ** 53n - 1n) / BigInt(population)
    expect(isDrawn(Number(last) / SCALE, population)).toBe(true)
    expect(isDrawn(Number(last + 1n) / SCALE, population)).toBe(false)
  })

  it('draws everybody when the population is at most size', () => {
    for (const population of [1, 2, 3, 4, 5]) {
      expect(isDrawn((SCALE - 1) / SCALE, population), `population ${population}`).toBe(true)
    }
    expect(isDrawn((SCALE - 1) / SCALE, 6)).toBe(false)
    expect(isDrawn(0.5, 20, 10)).toBe(false)
    expect(isDrawn(0.5 - 1 / SCALE, 20, 10)).toBe(true)
  })

  it('draws nobody for a population that is not an integer ≥ 1, or a fraction outside [0, 1)', () => {
    for (const population of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
      expect(isDrawn(0, population), `population ${population}`).toBe(false)
    }
    for (const fraction of [-Number.MIN_VALUE, 1, Number.NaN, Infinity]) {
      expect(isDrawn(fraction, 1), `fraction ${fraction}`).toBe(false)
    }
  })

  it('throws USAGE for a size that is not an integer ≥ 1', () => {
    expect(thrownCode(() => isDrawn(0, 10, 0))).toBe('USAGE')
    expect(thrownCode(() => isDrawn(0, 10, 2.5))).toBe('USAGE')
  })

  it('agrees with fraction < size / population away from the boundary', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }), fc.integer({ min: 1, max: 2 ** 32 - 1 }), (m, population) => {
      const fraction = Number(m) / SCALE
      const exact = m * BigInt(population) < 5n * 2n ** 53n
      expect(isDrawn(fraction, population)).toBe(exact)
      if (Math.abs(fraction - 5 / population) > 1e-12) expect(exact).toBe(fraction < 5 / population)
    }), { numRuns: 2000 })
  })
})

describe('acceptsPopulation (witness-draw-v1 §6: claimed · slack ≥ estimate)', () => {
  it('accepts a claim down to half the node\'s estimate', () => {
    expect(acceptsPopulation(50, 100)).toBe(true)
    expect(acceptsPopulation(49, 100)).toBe(false)
    expect(acceptsPopulation(51, 101)).toBe(true)
    expect(acceptsPopulation(50, 101)).toBe(false)
    expect(acceptsPopulation(10_000, 100)).toBe(true)
    expect(acceptsPopulation(1, 0)).toBe(true)
    expect(acceptsPopulation(1, 2)).toBe(true)
    expect(acceptsPopulation(1, 3)).toBe(false)
  })

  it('takes another slack', () => {
    expect(acceptsPopulation(25, 100, 4)).toBe(true)
    expect(acceptsPopulation(24, 100, 4)).toBe(false)
    expect(acceptsPopulation(99, 100, 1)).toBe(false)
  })

  it('refuses a claim that is not an integer ≥ 1', () => {
    for (const claimed of [0, -5, 1.5, Number.NaN, Infinity]) expect(acceptsPopulation(claimed, 0), `claimed ${claimed}`).toBe(false)
  })
})

describe('privateCheckProbability (witness-draw-v1 §8: min(1, privateChecks / estimate))', () => {
  it('keeps ~1 private check per memory network-wide', () => {
    expect(privateCheckProbability(0)).toBe(1)
    expect(privateCheckProbability(1)).toBe(1)
    expect(privateCheckProbability(4)).toBe(0.25)
    expect(privateCheckProbability(1000)).toBe(0.001)
    expect(privateCheckProbability(Number.NaN)).toBe(1)
    expect(privateCheckProbability(100, 3)).toBe(0.03)
    expect(privateCheckProbability(100, 0)).toBe(0)
    for (const estimate of [10, 100, 100_000]) expect(estimate * privateCheckProbability(estimate)).toBeCloseTo(WITNESS_DRAW.privateChecks, 12)
  })
})

describe('proveDraw and verifyDraw', () => {
  const seed = fc.uint8Array({ minLength: 32, maxLength: 32 })

  it('round trip: verifyDraw gives proveDraw\'s fraction, for that memory and key only', () => {
    fc.assert(fc.property(seed, fc.integer({ min: 1, max: 2 ** 32 - 1 }), (sk, population) => {
      const draw = proveDraw(sk, MEMORY, population)
      expect(draw.population).toBe(population)
      expect(draw.drawn).toBe(isDrawn(draw.fraction, population))
      expect(verifyDraw(publicKeyOfSeed(sk), MEMORY, draw.proof)).toBe(draw.fraction)
      expect(verifyDraw(publicKeyOfSeed(sk), OTHER_MEMORY, draw.proof)).toBeUndefined()
    }), { numRuns: 15 })
  })

  it('throws USAGE for a population that is not an integer ≥ 1, CID_INVALID, KEY_INVALID and PROOF_MALFORMED', () => {
    const sk = new Uint8Array(32).fill(7)
    for (const population of [0, -1, 2.5, Number.NaN]) expect(thrownCode(() => proveDraw(sk, MEMORY, population)), `population ${population}`).toBe('USAGE')
    expect(thrownCode(() => proveDraw(sk, 'not a cid', 10))).toBe('CID_INVALID')
    expect(thrownCode(() => proveDraw(new Uint8Array(31), MEMORY, 10))).toBe('KEY_INVALID')
    const pk = publicKeyOfSeed(sk)
    expect(thrownCode(() => verifyDraw(pk, MEMORY, new Uint8Array(79)))).toBe('PROOF_MALFORMED')
    expect(thrownCode(() => verifyDraw(pk.subarray(1), MEMORY, new Uint8Array(80)))).toBe('KEY_INVALID')
    expect(thrownCode(() => verifyDraw(pk, 'not a cid', new Uint8Array(80)))).toBe('CID_INVALID')
  })
})

describe('the draw over many witnesses (seeded: the same keys every run, so it cannot flake)', () => {
  // 2,000 witnesses with keys from SHA-256("isnad draw witness " + i): their fractions for one memory,
  // proved by libsodium for speed (it gives the portable bytes: test/unit/fast-crypto/vrf-native.test.ts).
  const WITNESSES = 2000
  const fractions = Array.from({ length: WITNESSES }, (_, i) =>
    proveDraw(sha256(new TextEncoder().encode(`isnad draw witness ${i}`)), MEMORY, WITNESSES, NODE_RECORD_FAST_PATHS).fraction)

  /** |count − n·p| ≤ 4 binomial standard deviations (a bound a fair draw breaks with probability < 10^-4). */
  function expectBinomial (count: number, n: number, p: number, what: string): void {
    const mean = n * p
    const bound = 4 * Math.sqrt(n * p * (1 - p))
    expect(Math.abs(count - mean), `${what}: ${count} drawn, expected ${mean} ± ${bound.toFixed(1)}`).toBeLessThanOrEqual(bound)
  }

  it('draws ~size witnesses when the population is the number of witnesses', () => {
    const drawn = fractions.filter((f) => isDrawn(f, WITNESSES)).length
    expectBinomial(drawn, WITNESSES, WITNESS_DRAW.size / WITNESSES, 'population 2000, size 5')
    expect(drawn).toBeGreaterThan(0)
  })

  it('draws in proportion at other sizes and populations', () => {
    for (const [size, population] of [[5, 200], [50, 2000], [5, 20], [20, 100]] as const) {
      const drawn = fractions.filter((f) => isDrawn(f, population, size)).length
      expectBinomial(drawn, WITNESSES, size / population, `population ${population}, size ${size}`)
    }
  })

  it('a witness understating the population by the accepted slack at most doubles its chance', () => {
    const honest = fractions.filter((f) => isDrawn(f, 2000, 50)).length
    const understated = fractions.filter((f) => isDrawn(f, 1000, 50)).length
    expect(understated).toBeGreaterThanOrEqual(honest)
    expectBinomial(understated, WITNESSES, 50 / 1000, 'population 1000 claimed against an estimate of 2000')
  })

  it('spreads the fractions uniformly over [0, 1) (ten bins)', () => {
    const bins = new Array<number>(10).fill(0)
    for (const f of fractions) bins[Math.floor(f * 10)] = (bins[Math.floor(f * 10)] ?? 0) + 1
    bins.forEach((count, i) => expectBinomial(count, WITNESSES, 0.1, `bin ${i}`))
  })
})
