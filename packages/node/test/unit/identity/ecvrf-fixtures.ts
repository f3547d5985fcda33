import { ed25519, ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { ecvrfEncodeToCurve } from '../../../src/identity/ecvrf.js'
import { readVectorFile } from './vectors.js'

/*
 * ECVRF test material shared by the portable tests (ecvrf.test.ts) and the libsodium fast path's
 * (test/unit/fast-crypto/vrf-native.test.ts).
 */

export interface EcvrfVector {
  id: string
  comment: string
  secret_key: string
  public_key: string
  alpha: string
  ctr: number
  h: string
  pi: string
  beta: string
}

export const ECVRF_VECTORS = readVectorFile<{ vectors: EcvrfVector[] }>('ecvrf/rfc9381.json').vectors

const Point = ed25519.Point
const L = Point.Fn.ORDER

function fromLE (bytes: Uint8Array): bigint {
  let n = 0n
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] ?? 0)
  return n
}

function toLE (n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++, n >>= 8n) out[i] = Number(n & 0xffn)
  return out
}

/** The order-8 point of ED25519_TORSION_SUBGROUP (index 1: a generator of the torsion group). */
export const TORSION_8 = Point.fromHex(ED25519_TORSION_SUBGROUP[1] as string)

/**
 * A proof RFC 9381 §5.3 accepts whose Gamma carries a torsion component: Gamma' = x*H + T with T
 * of order 8, and V = k*H − g*T for a guess g of c mod 8, retried until c ≡ g (about 8 tries).
 * Then s*H − c*Gamma' = k*H − c*T = V. Its beta equals the honest proof's (§5.2 clears the
 * cofactor), and libsodium's scalar multiplication refuses such a Gamma, so the fast path must
 * fall back to the portable one on it.
 */
export function torsionedProof (seed: Uint8Array, alpha: Uint8Array): Uint8Array {
  const { prefix, scalar: x, pointBytes: y } = ed25519.utils.getExtendedPublicKey(seed)
  const h = ecvrfEncodeToCurve(y, alpha)
  const gamma = h.multiply(x).add(TORSION_8)
  for (let attempt = 0; attempt < 1000; attempt++) {
    const k = fromLE(sha512.create().update(prefix).update(Uint8Array.of(attempt & 0xff, attempt >> 8)).digest()) % L
    const g = BigInt(attempt % 8)
    const u = Point.BASE.multiply(k)
    const v = h.multiply(k).subtract(g === 0n ? Point.ZERO : TORSION_8.multiplyUnsafe(g))
    const digest = sha512.create().update(Uint8Array.of(0x03, 0x02)).update(y).update(h.toBytes()).update(gamma.toBytes())
      .update(u.toBytes()).update(v.toBytes()).update(Uint8Array.of(0x00)).digest()
    const c = fromLE(digest.subarray(0, 16))
    if (c % 8n !== g) continue
    const s = (k + c * x) % L
    const proof = new Uint8Array(80)
    proof.set(gamma.toBytes(), 0)
    proof.set(toLE(c, 16), 32)
    proof.set(toLE(s, 32), 48)
    return proof
  }
  throw new Error('no torsioned proof in 1000 tries')
}

/** `proof` with its s replaced by s + L (the same residue, not canonical: §5.4.4 refuses it) if that fits 32 bytes. */
export function withNonCanonicalS (proof: Uint8Array): Uint8Array | undefined {
  const s = fromLE(proof.subarray(48)) + L
  if (s >= 2n ** 256n) return undefined
  const out = Uint8Array.from(proof)
  out.set(toLE(s, 32), 48)
  return out
}

/** A public key with a torsion component added (mixed order: RFC 9381 §5.4.5 accepts it, the node's key policy does not). */
export function mixedOrderKey (publicKey: Uint8Array): Uint8Array {
  return Point.fromBytes(publicKey).add(TORSION_8).toBytes()
}
