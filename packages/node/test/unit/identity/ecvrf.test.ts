import { ed25519, ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  ECVRF_OUTPUT_BYTES, ECVRF_PROOF_BYTES, ecvrfProofToHash, ecvrfProve, ecvrfVerify, ecvrfEncodeToCurve, publicKeyOfSeed
} from '../../../src/identity/index.js'
import { ECVRF_VECTORS, mixedOrderKey, torsionedProof, withNonCanonicalS } from './ecvrf-fixtures.js'
import { fromHex, toHex } from './vectors.js'

/** The error code `run` threw, or 'no throw'. */
function thrownCode (run: () => unknown): string {
  try {
    run()
    return 'no throw'
  } catch (err) {
    return isIsnadError(err) ? err.code : `non-IsnadError ${String(err)}`
  }
}

function flipBit (bytes: Uint8Array, bit: number): Uint8Array {
  const out = Uint8Array.from(bytes)
  out[bit >> 3] = (out[bit >> 3] ?? 0) ^ (1 << (bit & 7))
  return out
}

describe('RFC 9381 Appendix B.3 vectors (ECVRF-EDWARDS25519-SHA512-TAI)', () => {
  it('has the three examples', () => {
    expect(ECVRF_VECTORS.map((v) => v.id)).toEqual(['rfc9381-example-16', 'rfc9381-example-17', 'rfc9381-example-18'])
  })

  for (const v of ECVRF_VECTORS) {
    it(`${v.id}: the seed's Ed25519 key is PK (§5.5: RFC 8032 §5.1.5)`, () => {
      expect(toHex(publicKeyOfSeed(fromHex(v.secret_key))), v.id).toBe(v.public_key)
    })

    it(`${v.id}: encode_to_curve gives H, at the vector's ctr (§5.4.1.1)`, () => {
      expect(toHex(ecvrfEncodeToCurve(fromHex(v.public_key), fromHex(v.alpha)).toBytes()), v.id).toBe(v.h)
      // The first ctr whose hash decodes as a point is the vector's.
      const decodes = (ctr: number): boolean => {
        const hash = sha512(Uint8Array.from([0x03, 0x01, ...fromHex(v.public_key), ...fromHex(v.alpha), ctr, 0x00]))
        try {
          ed25519.Point.fromBytes(hash.subarray(0, 32), false)
          return true
        } catch {
          return false
        }
      }
      const first = [0, 1, 2, 3, 4, 5, 6, 7].find(decodes)
      expect(first, v.id).toBe(v.ctr)
    })

    it(`${v.id}: prove gives pi byte for byte (§5.1)`, () => {
      const proof = ecvrfProve(fromHex(v.secret_key), fromHex(v.alpha))
      expect(proof.length, v.id).toBe(ECVRF_PROOF_BYTES)
      expect(toHex(proof), v.id).toBe(v.pi)
    })

    it(`${v.id}: proof_to_hash gives beta (§5.2)`, () => {
      const beta = ecvrfProofToHash(fromHex(v.pi))
      expect(beta.length, v.id).toBe(ECVRF_OUTPUT_BYTES)
      expect(toHex(beta), v.id).toBe(v.beta)
    })

    it(`${v.id}: verify accepts pi and returns beta (§5.3)`, () => {
      const beta = ecvrfVerify(fromHex(v.public_key), fromHex(v.pi), fromHex(v.alpha))
      expect(beta === undefined ? 'INVALID' : toHex(beta), v.id).toBe(v.beta)
    })

    it(`${v.id}: verify refuses pi for another alpha and under another vector's key`, () => {
      expect(ecvrfVerify(fromHex(v.public_key), fromHex(v.pi), fromHex(v.alpha + '00')), v.id).toBeUndefined()
      for (const other of ECVRF_VECTORS.filter((o) => o.id !== v.id)) {
        expect(ecvrfVerify(fromHex(other.public_key), fromHex(v.pi), fromHex(v.alpha)), `${v.id} under ${other.id}'s key`).toBeUndefined()
      }
    })
  }
})

describe('ecvrfVerify: a well-formed bad proof or key is undefined, a wrong length throws', () => {
  const v = ECVRF_VECTORS[0] as (typeof ECVRF_VECTORS)[number]
  const pk = fromHex(v.public_key)
  const pi = fromHex(v.pi)
  const alpha = fromHex(v.alpha)

  it.each(ED25519_TORSION_SUBGROUP.map((hex, i) => [i, hex] as const))('small-order key %i is refused (§5.4.5)', (i, hex) => {
    expect(ecvrfVerify(fromHex(hex), pi, alpha), `torsion point ${i}`).toBeUndefined()
  })

  it('a mixed-order key is refused (the node\'s key policy, stricter than §5.4.5)', () => {
    expect(ecvrfVerify(mixedOrderKey(pk), pi, alpha)).toBeUndefined()
  })

  it('a non-canonical key encoding (y ≥ p) is refused (RFC 8032 §5.1.3)', () => {
    // y = p + 1 encodes the identity non-canonically; y = 2^255 − 1 is ≥ p as well.
    const yPlus = fromHex('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f')
    expect(ecvrfVerify(yPlus, pi, alpha)).toBeUndefined()
    expect(ecvrfVerify(new Uint8Array(32).fill(0xff), pi, alpha)).toBeUndefined()
  })

  it('s ≥ q is refused, though s + q is the same residue (§5.4.4)', () => {
    for (const w of ECVRF_VECTORS) {
      const bad = withNonCanonicalS(fromHex(w.pi))
      if (bad === undefined) continue
      expect(ecvrfVerify(fromHex(w.public_key), bad, fromHex(w.alpha)), w.id).toBeUndefined()
      expect(thrownCode(() => ecvrfProofToHash(bad)), w.id).toBe('PROOF_MALFORMED')
    }
  })

  it('a Gamma that is not a point is refused; proof_to_hash throws on it', () => {
    // y = 2 has no x on edwards25519.
    const bad = Uint8Array.from(pi)
    bad.set(fromHex('02'.padEnd(64, '0')), 0)
    expect(() => ed25519.Point.fromBytes(bad.subarray(0, 32), false)).toThrow()
    expect(ecvrfVerify(pk, bad, alpha)).toBeUndefined()
    expect(thrownCode(() => ecvrfProofToHash(bad))).toBe('PROOF_MALFORMED')
  })

  it('the all-zero proof is refused', () => {
    expect(ecvrfVerify(pk, new Uint8Array(80), alpha)).toBeUndefined()
  })

  it('a Gamma with a torsion component verifies, with the honest beta (§5.2 clears the cofactor)', () => {
    for (const w of ECVRF_VECTORS) {
      const proof = torsionedProof(fromHex(w.secret_key), fromHex(w.alpha))
      expect(toHex(proof.subarray(0, 32)), w.id).not.toBe(w.pi.slice(0, 64))
      const beta = ecvrfVerify(fromHex(w.public_key), proof, fromHex(w.alpha))
      expect(beta === undefined ? 'INVALID' : toHex(beta), w.id).toBe(w.beta)
    }
  })

  it('wrong lengths throw PROOF_MALFORMED (proof) and KEY_INVALID (key, seed)', () => {
    expect(thrownCode(() => ecvrfVerify(pk, pi.subarray(0, 79), alpha))).toBe('PROOF_MALFORMED')
    expect(thrownCode(() => ecvrfVerify(pk, new Uint8Array(81), alpha))).toBe('PROOF_MALFORMED')
    expect(thrownCode(() => ecvrfVerify(pk.subarray(0, 31), pi, alpha))).toBe('KEY_INVALID')
    expect(thrownCode(() => ecvrfProofToHash(new Uint8Array(64)))).toBe('PROOF_MALFORMED')
    expect(thrownCode(() => ecvrfProve(new Uint8Array(31), alpha))).toBe('KEY_INVALID')
    expect(thrownCode(() => ecvrfProve(new Uint8Array(64), alpha))).toBe('KEY_INVALID')
  })
})

describe('ECVRF properties', () => {
  const seed = fc.uint8Array({ minLength: 32, maxLength: 32 })
  const alpha = fc.uint8Array({ maxLength: 64 })

  it('prove → verify round trip, and verify\'s beta is proof_to_hash(prove)', () => {
    fc.assert(fc.property(seed, alpha, (sk, a) => {
      const proof = ecvrfProve(sk, a)
      const beta = ecvrfVerify(publicKeyOfSeed(sk), proof, a)
      expect(beta).toBeDefined()
      expect(toHex(beta as Uint8Array)).toBe(toHex(ecvrfProofToHash(proof)))
    }), { numRuns: 30 })
  })

  it('a flipped bit in the proof, alpha or key makes verify refuse', () => {
    fc.assert(fc.property(seed, alpha, fc.nat({ max: 80 * 8 - 1 }), fc.nat({ max: 32 * 8 - 1 }), fc.nat(), (sk, a, proofBit, keyBit, alphaBit) => {
      const proof = ecvrfProve(sk, a)
      const pk = publicKeyOfSeed(sk)
      expect(ecvrfVerify(pk, flipBit(proof, proofBit), a), `proof bit ${proofBit}`).toBeUndefined()
      expect(ecvrfVerify(flipBit(pk, keyBit), proof, a), `key bit ${keyBit}`).toBeUndefined()
      const flippedAlpha = a.length === 0 ? Uint8Array.of(0) : flipBit(a, alphaBit % (a.length * 8))
      expect(ecvrfVerify(pk, proof, flippedAlpha), 'alpha').toBeUndefined()
    }), { numRuns: 30 })
  })

  it('prove is deterministic', () => {
    fc.assert(fc.property(seed, alpha, (sk, a) => {
      expect(toHex(ecvrfProve(sk, a))).toBe(toHex(ecvrfProve(Uint8Array.from(sk), Uint8Array.from(a))))
    }), { numRuns: 10 })
  })
})
