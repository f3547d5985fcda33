import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { IsnadError } from '../errors/index.js'
import { ED25519_PUBLIC_KEY_BYTES } from './did-key.js'
import { decodeAcceptablePublicKey, ED25519_SECRET_KEY_BYTES, type EdwardsPoint } from './ed25519.js'

/*
 * RFC 9381 ECVRF-EDWARDS25519-SHA512-TAI (suite_string 0x03, §5.5) on @noble/curves' point arithmetic.
 * The secret key is an RFC 8032 seed and the public key its Ed25519 key (§5.5: "the secret scalar x
 * and the public key Y are derived as in Section 5.1.5 of [RFC8032]"), so an agent's did:key is its
 * VRF key (protocols/witness-draw-v1.md explains why reusing it is safe).
 *
 * Proving multiplies points by the secret scalar and the nonce with @noble/curves' constant-time
 * multiplication (the arithmetic mod q is BigInt, as in that library's own signing); verifying uses
 * the faster variable-time one, as everything it touches is public. The node's fast path (libsodium,
 * src/fast-crypto/vrf-native.ts) is injected through RecordFastPaths and gives the same bytes on every input.
 */

/** suite_string of ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381 §5.5). */
export const ECVRF_SUITE = 0x03
/** ptLen + cLen + qLen = 32 + 16 + 32 (RFC 9381 §5.5, §5.1 step 8). */
export const ECVRF_PROOF_BYTES = 80
/** beta_string: a SHA-512 digest (RFC 9381 §5.2). */
export const ECVRF_OUTPUT_BYTES = 64
/** cLen (RFC 9381 §5.5). */
const CHALLENGE_BYTES = 16
const POINT_BYTES = 32

// Domain separators (RFC 9381 §5.2, §5.4.1.1, §5.4.3).
const ENCODE_TO_CURVE_FRONT = 0x01
const CHALLENGE_FRONT = 0x02
const PROOF_TO_HASH_FRONT = 0x03
const BACK = 0x00

const Point = ed25519.Point
/** The group order q = L (RFC 8032 §5.1). */
const ORDER = Point.Fn.ORDER

/** A decoded proof (RFC 9381 §5.4.4): Gamma, the 16-byte challenge c and the response s < q. */
interface DecodedProof {
  gamma: EdwardsPoint
  c: bigint
  s: bigint
}

/**
 * The 80-byte proof pi_string that `alpha` was evaluated under the key of `seed` (RFC 9381 §5.1).
 * Deterministic: the same seed and alpha always give the same bytes. Throws KEY_INVALID for a seed
 * that is not 32 bytes.
 */
export function ecvrfProve (seed: Uint8Array, alpha: Uint8Array): Uint8Array {
  if (!(seed instanceof Uint8Array) || seed.length !== ED25519_SECRET_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an ECVRF secret key is a 32-byte Ed25519 seed, got ${seed?.length}`)
  }
  // §5.1 step 1: x and Y as RFC 8032 §5.1.5 derives them; `prefix` is the second half of SHA-512(SK).
  const { prefix, scalar: x, pointBytes: publicKey } = ed25519.utils.getExtendedPublicKey(seed)
  // Steps 2–3: H = encode_to_curve(salt = PK_string, alpha), h_string = point_to_string(H).
  const h = ecvrfEncodeToCurve(publicKey, alpha)
  const hBytes = h.toBytes()
  // Step 4: Gamma = x*H (x is reduced mod q; H is in the prime-order subgroup, so the point is x*H).
  const gamma = h.multiply(x)
  // Step 5: k = nonce_generation(SK, h_string) (§5.4.2.2).
  const k = generateNonce(prefix, hBytes)
  // Step 6: c = challenge_generation(Y, H, Gamma, k*B, k*H) (§5.4.3).
  const c = generateChallenge(publicKey, hBytes, gamma.toBytes(), Point.BASE.multiply(k).toBytes(), h.multiply(k).toBytes())
  // Step 7: s = (k + c*x) mod q.
  const s = (k + c * x) % ORDER
  // Step 8: pi_string = point_to_string(Gamma) || int_to_string(c, cLen) || int_to_string(s, qLen).
  const proof = new Uint8Array(ECVRF_PROOF_BYTES)
  proof.set(gamma.toBytes(), 0)
  proof.set(littleEndian(c, CHALLENGE_BYTES), POINT_BYTES)
  proof.set(littleEndian(s, POINT_BYTES), POINT_BYTES + CHALLENGE_BYTES)
  return proof
}

/**
 * beta_string, the 64-byte VRF output of a proof (RFC 9381 §5.2). It does not check the proof:
 * use it on proofs this node made, and ecvrfVerify (which returns the same beta) on anyone else's.
 * Throws PROOF_MALFORMED for a proof that is not 80 bytes or does not decode (§5.4.4).
 */
export function ecvrfProofToHash (proof: Uint8Array): Uint8Array {
  assertEcvrfProofLength(proof)
  const decoded = decodeProof(proof)
  if (decoded === undefined) throw new IsnadError('PROOF_MALFORMED', 'an ECVRF proof whose Gamma is not a point or whose s is not below the group order')
  return hashGamma(decoded.gamma)
}

/**
 * RFC 9381 §5.3 with key validation: beta_string (64 bytes) if `proof` proves `alpha` under
 * `publicKey`, else undefined. Throws only on wrong lengths: PROOF_MALFORMED (not 80 bytes) or
 * KEY_INVALID (not 32 bytes).
 *
 * The key is judged by the node's Ed25519 policy (decodeAcceptablePublicKey): a canonical encoding,
 * not of small order (§5.4.5, ECVRF_validate_key) and in the prime-order subgroup, which §5.4.5 does
 * not ask for; a key that fails it cannot sign an isnad record either. `acceptableKey` is that
 * decoder or a memo of it the caller owns (the subgroup check costs a scalar multiplication).
 */
export function ecvrfVerify (
  publicKey: Uint8Array, proof: Uint8Array, alpha: Uint8Array,
  acceptableKey: (publicKey: Uint8Array) => EdwardsPoint | undefined = decodeAcceptablePublicKey
): Uint8Array | undefined {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an ECVRF public key has 32 bytes, got ${publicKey?.length}`)
  }
  assertEcvrfProofLength(proof)
  // Steps 1–3: Y = string_to_point(PK_string), validated (§5.4.5).
  const y = acceptableKey(publicKey)
  if (y === undefined) return undefined
  // Steps 4–6: (Gamma, c, s) = decode_proof(pi_string) (§5.4.4).
  const decoded = decodeProof(proof)
  if (decoded === undefined) return undefined
  const { gamma, c, s } = decoded
  // Step 7: H = encode_to_curve(salt = PK_string, alpha).
  const h = ecvrfEncodeToCurve(publicKey, alpha)
  // Steps 8–9: U = s*B − c*Y, V = s*H − c*Gamma.
  const u = Point.BASE.multiplyUnsafe(s).subtract(y.multiplyUnsafe(c))
  const v = h.multiplyUnsafe(s).subtract(gamma.multiplyUnsafe(c))
  // Steps 10–11: c' = challenge_generation(Y, H, Gamma, U, V); valid iff c = c'.
  const expected = generateChallenge(publicKey, h.toBytes(), proof.subarray(0, POINT_BYTES), u.toBytes(), v.toBytes())
  return expected === c ? hashGamma(gamma) : undefined
}

/** Throws PROOF_MALFORMED unless `proof` is 80 bytes. */
export function assertEcvrfProofLength (proof: Uint8Array): void {
  if (!(proof instanceof Uint8Array) || proof.length !== ECVRF_PROOF_BYTES) {
    throw new IsnadError('PROOF_MALFORMED', `an ECVRF proof has 80 bytes, got ${proof?.length}`)
  }
}

/**
 * RFC 9381 §5.4.1.1, ECVRF_encode_to_curve_try_and_increment: the first ctr = 0, 1, … for which
 * SHA-512(0x03 || 0x01 || salt || alpha || ctr || 0x00)[0..31] decodes as a point (RFC 8032
 * §5.1.3, strict), times the cofactor 8. Each try succeeds with probability ~1/2; 256 failures
 * (probability 2^-256) throw, as the RFC's one-byte ctr allows no more.
 */
export function ecvrfEncodeToCurve (salt: Uint8Array, alpha: Uint8Array): EdwardsPoint {
  const tail = new Uint8Array(2)
  for (let ctr = 0; ctr < 256; ctr++) {
    tail[0] = ctr
    tail[1] = BACK
    const hash = sha512.create().update(Uint8Array.of(ECVRF_SUITE, ENCODE_TO_CURVE_FRONT)).update(salt).update(alpha).update(tail).digest()
    const point = decodePoint(hash.subarray(0, POINT_BYTES))
    if (point !== undefined) return point.clearCofactor()
  }
  throw new IsnadError('PROOF_MALFORMED', 'ECVRF encode_to_curve found no point in 256 tries')
}

/**
 * RFC 9381 §5.4.2.2: k = string_to_int(SHA-512(truncated_hashed_sk_string || h_string)) mod q, where
 * truncated_hashed_sk_string is bytes 32..63 of SHA-512(SK) (`prefix`, as in RFC 8032 §5.1.6).
 */
function generateNonce (prefix: Uint8Array, hBytes: Uint8Array): bigint {
  return fromLittleEndian(sha512.create().update(prefix).update(hBytes).digest()) % ORDER
}

/**
 * RFC 9381 §5.4.3, with the five points already encoded: the first cLen = 16 bytes of
 * SHA-512(0x03 || 0x02 || P1 || … || P5 || 0x00), as a little-endian integer. The caller passes
 * (Y, H, Gamma, U, V) (§5.1 step 6, §5.3 step 10).
 */
function generateChallenge (...points: Uint8Array[]): bigint {
  const hash = sha512.create().update(Uint8Array.of(ECVRF_SUITE, CHALLENGE_FRONT))
  for (const point of points) hash.update(point)
  return fromLittleEndian(hash.update(Uint8Array.of(BACK)).digest().subarray(0, CHALLENGE_BYTES))
}

/** RFC 9381 §5.2 step 4: SHA-512(0x03 || 0x03 || point_to_string(cofactor * Gamma) || 0x00). */
function hashGamma (gamma: EdwardsPoint): Uint8Array {
  return sha512.create().update(Uint8Array.of(ECVRF_SUITE, PROOF_TO_HASH_FRONT)).update(gamma.clearCofactor().toBytes()).update(Uint8Array.of(BACK)).digest()
}

/** RFC 9381 §5.4.4: undefined when Gamma is not a point or s ≥ q. The length is checked by the caller. */
function decodeProof (proof: Uint8Array): DecodedProof | undefined {
  const gamma = decodePoint(proof.subarray(0, POINT_BYTES))
  if (gamma === undefined) return undefined
  const c = fromLittleEndian(proof.subarray(POINT_BYTES, POINT_BYTES + CHALLENGE_BYTES))
  const s = fromLittleEndian(proof.subarray(POINT_BYTES + CHALLENGE_BYTES))
  return s < ORDER ? { gamma, c, s } : undefined
}

/**
 * string_to_point (RFC 9381 §5.5): RFC 8032 §5.1.3 decoding, which fails for y ≥ p, for an x that
 * does not exist, and for x = 0 with the sign bit set. @noble/curves' non-ZIP-215 mode is exactly that.
 */
function decodePoint (bytes: Uint8Array): EdwardsPoint | undefined {
  try {
    return Point.fromBytes(bytes, false)
  } catch {
    return undefined
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** string_to_int (RFC 9381 §5.5: little-endian). */
function fromLittleEndian (bytes: Uint8Array): bigint {
  let hex = '0x0'
  for (let i = bytes.length - 1; i >= 0; i--) hex += HEX_BYTES[bytes[i] ?? 0]
  return BigInt(hex)
}

/** int_to_string(n, length) (RFC 9381 §5.5: little-endian). */
function littleEndian (n: bigint, length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    bytes[i] = Number(n & 0xffn)
    n >>= 8n
  }
  return bytes
}
