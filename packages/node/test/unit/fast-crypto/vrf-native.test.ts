import { ed25519, ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { proveDraw, verifyDraw } from '../../../src/draw/index.js'
import { isIsnadError } from '../../../src/errors/index.js'
import { ecvrfProofToHash, ecvrfProve, ecvrfVerify, isAcceptablePublicKey, publicKeyOfSeed } from '../../../src/identity/index.js'
import { NODE_RECORD_FAST_PATHS, vrfBackend, vrfProofToHashNative, vrfProveNative, vrfVerifyNative } from '../../../src/fast-crypto/index.js'
import { PORTABLE_FAST_PATHS } from '../../../src/record/index.js'
import { ECVRF_VECTORS, mixedOrderKey, TORSION_8, torsionedProof, withNonCanonicalS } from '../identity/ecvrf-fixtures.js'
import { fromHex, readVectorFile, toHex, type Ed25519VectorFile } from '../identity/vectors.js'

/** What a call gave: hex bytes, 'undefined', or the code it threw. */
function outcome (run: () => Uint8Array | undefined): string {
  try {
    const result = run()
    return result === undefined ? 'undefined' : toHex(result)
  } catch (err) {
    return isIsnadError(err) ? `throws ${err.code}` : `throws non-IsnadError ${String(err)}`
  }
}

function expectSameVerify (publicKey: Uint8Array, proof: Uint8Array, alpha: Uint8Array, what: string): void {
  expect(outcome(() => vrfVerifyNative(publicKey, proof, alpha)), what).toBe(outcome(() => ecvrfVerify(publicKey, proof, alpha)))
}

function expectSameProofToHash (proof: Uint8Array, what: string): void {
  expect(outcome(() => vrfProofToHashNative(proof)), what).toBe(outcome(() => ecvrfProofToHash(proof)))
}

/** 100 seeds from SHA-256 of a label: the same every run. */
const SEEDS = Array.from({ length: 100 }, (_, i) => sha256(new TextEncoder().encode(`isnad vrf seed ${i}`)))

describe('the node\'s ECVRF (libsodium) gives the portable bytes', () => {
  it('runs on libsodium here (sodium-native is a dependency)', () => {
    expect(vrfBackend).toBe('libsodium')
    expect(NODE_RECORD_FAST_PATHS.vrfProve).toBe(vrfProveNative)
    expect(NODE_RECORD_FAST_PATHS.vrfVerify).toBe(vrfVerifyNative)
    expect(NODE_RECORD_FAST_PATHS.vrfProofToHash).toBe(vrfProofToHashNative)
  })

  for (const v of ECVRF_VECTORS) {
    it(`${v.id}: prove, verify and proof_to_hash give the RFC 9381 bytes`, () => {
      expect(toHex(vrfProveNative(fromHex(v.secret_key), fromHex(v.alpha))), v.id).toBe(v.pi)
      expect(outcome(() => vrfVerifyNative(fromHex(v.public_key), fromHex(v.pi), fromHex(v.alpha))), v.id).toBe(v.beta)
      expect(toHex(vrfProofToHashNative(fromHex(v.pi))), v.id).toBe(v.beta)
      expectSameVerify(fromHex(v.public_key), fromHex(v.pi), fromHex(v.alpha + '01'), `${v.id}, another alpha`)
    })
  }

  it('100 seeded keys: the same proofs, verdicts and betas for a draw-sized alpha (the first 10 also for an empty one)', () => {
    SEEDS.forEach((seed, i) => {
      const publicKey = publicKeyOfSeed(seed)
      const alphas = [Uint8Array.from([...sha256(seed), ...sha256(seed).subarray(0, 18)]), ...(i < 10 ? [new Uint8Array(0)] : [])]
      for (const alpha of alphas) {
        const proof = vrfProveNative(seed, alpha)
        expect(toHex(proof), `seed ${i}`).toBe(toHex(ecvrfProve(seed, alpha)))
        expectSameVerify(publicKey, proof, alpha, `seed ${i}`)
        expectSameProofToHash(proof, `seed ${i}`)
        if (i < 10) expectSameVerify(publicKeyOfSeed(SEEDS[i + 1] as Uint8Array), proof, alpha, `seed ${i} under another key`)
      }
    })
  })

  it('random seeds, alphas and bit flips (fast-check)', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 80 }), fc.nat({ max: 639 }), (seed, alpha, bit) => {
      const proof = vrfProveNative(seed, alpha)
      expect(toHex(proof)).toBe(toHex(ecvrfProve(seed, alpha)))
      const flipped = Uint8Array.from(proof)
      flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7))
      expectSameVerify(publicKeyOfSeed(seed), flipped, alpha, `bit ${bit}`)
      expectSameProofToHash(flipped, `bit ${bit}`)
    }), { numRuns: 40 })
  })

  it('the draw gives the same proof and fraction through either path', () => {
    const memory = 'bafyreifcoyg34ljvw3iaxh4x6svj4hn3ch3viyqjdbrp3p2e5rxdeeia3q'
    for (const seed of SEEDS.slice(0, 10)) {
      const native = proveDraw(seed, memory, 100, NODE_RECORD_FAST_PATHS)
      const portable = proveDraw(seed, memory, 100, PORTABLE_FAST_PATHS)
      expect(toHex(native.proof)).toBe(toHex(portable.proof))
      expect(native.fraction).toBe(portable.fraction)
      expect(verifyDraw(publicKeyOfSeed(seed), memory, native.proof, NODE_RECORD_FAST_PATHS)).toBe(portable.fraction)
    }
  })
})

describe('the node\'s ECVRF on the edge cases gives the portable verdicts', () => {
  const v = ECVRF_VECTORS[0] as (typeof ECVRF_VECTORS)[number]
  const pk = fromHex(v.public_key)
  const pi = fromHex(v.pi)
  const alpha = fromHex(v.alpha)

  /** Every key of the Ed25519 edge-case vectors, the torsion points with either sign bit, and y ≥ p. */
  const KEYS: Uint8Array[] = [
    ...readVectorFile<Ed25519VectorFile>('ed25519/edge-cases.json').vectors.map((e) => fromHex(e.public_key)).filter((key) => key.length === 32),
    ...ED25519_TORSION_SUBGROUP.flatMap((hex) => {
      const key = fromHex(hex)
      const flipped = Uint8Array.from(key)
      flipped[31] = (flipped[31] ?? 0) ^ 0x80
      return [key, flipped]
    }),
    ...Array.from({ length: 19 }, (_, i) => {
      const key = new Uint8Array(32).fill(0xff)
      key[0] = 0xed + i
      key[31] = 0x7f
      return [key, Uint8Array.from([...key.subarray(0, 31), 0xff])]
    }).flat(),
    mixedOrderKey(pk)
  ]

  it('every edge-case key and Gamma gets the portable verdict (libsodium checks a point it multiplies as the node\'s key policy does)', () => {
    expect(KEYS.length).toBeGreaterThan(40)
    KEYS.forEach((key, i) => {
      expectSameVerify(key, pi, alpha, `key ${i} ${toHex(key)}`)
      expect(vrfVerifyNative(key, pi, alpha) === undefined, `key ${i}`).toBe(true)
      // As a Gamma: proof_to_hash decodes it exactly as the portable one does.
      const proof = Uint8Array.from(pi)
      proof.set(key, 0)
      expectSameProofToHash(proof, `Gamma ${i} ${toHex(key)}`)
      expectSameVerify(pk, proof, alpha, `Gamma ${i}`)
    })
    expect(KEYS.filter(isAcceptablePublicKey).length).toBeGreaterThan(0)
  })

  it('a torsioned Gamma (libsodium refuses its multiplication): the portable verdict, valid', () => {
    for (const w of ECVRF_VECTORS) {
      const proof = torsionedProof(fromHex(w.secret_key), fromHex(w.alpha))
      expect(outcome(() => vrfVerifyNative(fromHex(w.public_key), proof, fromHex(w.alpha))), w.id).toBe(w.beta)
      expectSameProofToHash(proof, w.id)
    }
  })

  it('s ≥ q, s = 0, c = 0, Gamma of small order, the all-zero proof', () => {
    for (const w of ECVRF_VECTORS) {
      const bad = withNonCanonicalS(fromHex(w.pi))
      if (bad !== undefined) {
        expectSameVerify(fromHex(w.public_key), bad, fromHex(w.alpha), `${w.id} s + q`)
        expectSameProofToHash(bad, `${w.id} s + q`)
      }
      const zeroS = fromHex(w.pi)
      zeroS.fill(0, 48)
      expectSameVerify(fromHex(w.public_key), zeroS, fromHex(w.alpha), `${w.id} s = 0`)
      const zeroC = fromHex(w.pi)
      zeroC.fill(0, 32, 48)
      expectSameVerify(fromHex(w.public_key), zeroC, fromHex(w.alpha), `${w.id} c = 0`)
      const smallGamma = fromHex(w.pi)
      smallGamma.set(TORSION_8.toBytes(), 0)
      expectSameVerify(fromHex(w.public_key), smallGamma, fromHex(w.alpha), `${w.id} Gamma of order 8`)
      expectSameProofToHash(smallGamma, `${w.id} Gamma of order 8`)
    }
    expectSameVerify(pk, new Uint8Array(80), alpha, 'all zero')
    expectSameProofToHash(new Uint8Array(80), 'all zero')
  })

  it('random 80-byte proofs and 32-byte Gammas', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 80, maxLength: 80 }), (proof) => {
      expectSameVerify(pk, proof, alpha, toHex(proof))
      expectSameProofToHash(proof, toHex(proof))
      // Half of random Gammas decode; give them a valid-looking rest.
      const withRest = Uint8Array.from(pi)
      withRest.set(proof.subarray(0, 32), 0)
      expectSameProofToHash(withRest, toHex(withRest))
    }), { numRuns: 300 })
  })

  it('wrong lengths throw the portable codes', () => {
    expect(outcome(() => vrfVerifyNative(pk, pi.subarray(0, 79), alpha))).toBe('throws PROOF_MALFORMED')
    expect(outcome(() => vrfVerifyNative(pk.subarray(0, 31), pi, alpha))).toBe('throws KEY_INVALID')
    expect(outcome(() => vrfProofToHashNative(new Uint8Array(81)))).toBe('throws PROOF_MALFORMED')
    expect(outcome(() => vrfProveNative(new Uint8Array(31), alpha))).toBe('throws KEY_INVALID')
  })

  it('a Gamma of y = 1 or y = p − 1 with the sign bit set does not decode (RFC 8032 §5.1.3), nor does it here', () => {
    for (const hex of ['0100000000000000000000000000000000000000000000000000000000000080', 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff']) {
      expect(() => ed25519.Point.fromBytes(fromHex(hex), false), hex).toThrow()
      const proof = Uint8Array.from(pi)
      proof.set(fromHex(hex), 0)
      expect(outcome(() => vrfProofToHashNative(proof)), hex).toBe('throws PROOF_MALFORMED')
    }
  })
})
