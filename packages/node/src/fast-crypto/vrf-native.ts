import { hash } from 'node:crypto'
import { createRequire } from 'node:module'
import {
  ECVRF_PROOF_BYTES, ECVRF_SUITE, ED25519_PUBLIC_KEY_BYTES, ED25519_SECRET_KEY_BYTES, ecvrfProofToHash, ecvrfProve, ecvrfVerify, GROUP_ORDER_LE
} from '../identity/index.js'
import { sodiumModulePath } from './sodium.js'

/*
 * RFC 9381 ECVRF-EDWARDS25519-SHA512-TAI on libsodium's edwards25519 core (RecordFastPaths.vrfProve,
 * vrfVerify, vrfProofToHash): the witness draw proves once per memory a node receives and verifies
 * every drawn attestation (protocols/witness-draw-v1.md). The steps and their RFC sections are
 * src/identity/ecvrf.ts's; this file gives the same bytes and verdicts on every input
 * (test/unit/fast-crypto/vrf-native.test.ts: the RFC vectors, random seeds, and the edge cases).
 *
 * libsodium's scalar multiplication refuses what the RFC accepts in a few places: a point outside
 * the prime-order subgroup (a Gamma with a torsion component, which a dishonest prover can make
 * verify), a zero scalar and an identity result. Each of those throws here and the call is handed
 * to the portable implementation, which decides; honest proofs never meet them.
 *
 * Loaded at run time through require (sodium.ts resolves it), so a platform without a prebuilt
 * binary keeps the portable implementation.
 */

/** The functions of sodium-native used here; each throws on a status other than 0. */
interface SodiumCore {
  crypto_core_ed25519_add: (r: Uint8Array, p: Uint8Array, q: Uint8Array) => void
  crypto_core_ed25519_sub: (r: Uint8Array, p: Uint8Array, q: Uint8Array) => void
  crypto_scalarmult_ed25519_noclamp: (q: Uint8Array, n: Uint8Array, p: Uint8Array) => void
  crypto_scalarmult_ed25519_base_noclamp: (q: Uint8Array, n: Uint8Array) => void
  crypto_core_ed25519_scalar_reduce: (r: Uint8Array, s: Uint8Array) => void
  crypto_core_ed25519_scalar_add: (z: Uint8Array, x: Uint8Array, y: Uint8Array) => void
}

const NEEDED: ReadonlyArray<keyof SodiumCore> = [
  'crypto_core_ed25519_add', 'crypto_core_ed25519_sub', 'crypto_scalarmult_ed25519_noclamp',
  'crypto_scalarmult_ed25519_base_noclamp', 'crypto_core_ed25519_scalar_reduce', 'crypto_core_ed25519_scalar_add'
]

function load (): SodiumCore | undefined {
  if (sodiumModulePath === undefined) return undefined
  try {
    const sodium = createRequire(import.meta.url)(sodiumModulePath) as Partial<SodiumCore>
    return NEEDED.every((name) => typeof sodium[name] === 'function') ? sodium as SodiumCore : undefined
  } catch {
    return undefined
  }
}

const sodium = load()

/** Which implementation the node's ECVRF runs: 'libsodium', or 'portable' without it. */
export const vrfBackend: 'libsodium' | 'portable' = sodium === undefined ? 'portable' : 'libsodium'

const POINT = 32
const CHALLENGE = 16
const ENCODE_PREFIX = Uint8Array.of(ECVRF_SUITE, 0x01)
const CHALLENGE_PREFIX = Uint8Array.of(ECVRF_SUITE, 0x02)
const HASH_PREFIX = Uint8Array.of(ECVRF_SUITE, 0x03)
const BACK = Uint8Array.of(0x00)

const sha512 = (...parts: Uint8Array[]): Buffer => hash('sha512', Buffer.concat(parts), 'buffer')

/** ecvrfProve through libsodium (the same 80 bytes), else the portable one. Secret buffers are zeroed. */
export function vrfProveNative (seed: Uint8Array, alpha: Uint8Array): Uint8Array {
  if (sodium === undefined || seed.length !== ED25519_SECRET_KEY_BYTES) return ecvrfProve(seed, alpha)
  const expanded = sha512(seed)
  const wide = new Uint8Array(64)
  const x = new Uint8Array(32)
  const k = new Uint8Array(32)
  const cx = new Uint8Array(32)
  try {
    // RFC 9381 §5.1 step 1 (RFC 8032 §5.1.5): x = clamp(SHA-512(SK)[0..31]) mod q, Y = x*B.
    wide.set(expanded.subarray(0, 32))
    clamp(wide)
    sodium.crypto_core_ed25519_scalar_reduce(x, wide)
    const publicKey = new Uint8Array(POINT)
    sodium.crypto_scalarmult_ed25519_base_noclamp(publicKey, x)
    // Steps 2–4: H, then Gamma = x*H.
    const h = encodeToCurve(sodium, publicKey, alpha)
    if (h === undefined) return ecvrfProve(seed, alpha)
    const gamma = new Uint8Array(POINT)
    sodium.crypto_scalarmult_ed25519_noclamp(gamma, x, h)
    // Step 5 (§5.4.2.2): k = SHA-512(SHA-512(SK)[32..63] || h_string) mod q.
    sodium.crypto_core_ed25519_scalar_reduce(k, sha512(expanded.subarray(32), h))
    // Step 6 (§5.4.3): c from (Y, H, Gamma, k*B, k*H).
    const u = new Uint8Array(POINT)
    const v = new Uint8Array(POINT)
    sodium.crypto_scalarmult_ed25519_base_noclamp(u, k)
    sodium.crypto_scalarmult_ed25519_noclamp(v, k, h)
    const c = sha512(CHALLENGE_PREFIX, publicKey, h, gamma, u, v, BACK).subarray(0, CHALLENGE)
    // Step 7: s = (k + c*x) mod q, the product in fixed-size limbs and reduced by libsodium.
    wide.fill(0)
    multiplyInto(wide, c, x)
    sodium.crypto_core_ed25519_scalar_reduce(cx, wide)
    const proof = new Uint8Array(ECVRF_PROOF_BYTES)
    proof.set(gamma, 0)
    proof.set(c, POINT)
    sodium.crypto_core_ed25519_scalar_add(proof.subarray(POINT + CHALLENGE), k, cx)
    return proof
  } catch {
    return ecvrfProve(seed, alpha)
  } finally {
    expanded.fill(0)
    wide.fill(0)
    x.fill(0)
    k.fill(0)
    cx.fill(0)
  }
}

/** ecvrfVerify through libsodium (the same verdict and beta), else the portable one. */
export function vrfVerifyNative (publicKey: Uint8Array, proof: Uint8Array, alpha: Uint8Array): Uint8Array | undefined {
  if (sodium === undefined || publicKey.length !== ED25519_PUBLIC_KEY_BYTES || proof.length !== ECVRF_PROOF_BYTES) {
    return ecvrfVerify(publicKey, proof, alpha)
  }
  // §5.3 steps 1–3 under the node's key policy (canonical, not small order, in the prime-order
  // subgroup: decodeAcceptablePublicKey's set) are libsodium's own checks of the point it multiplies,
  // so c*Y below throws for any other key and the portable code refuses it. At ingest the key has
  // passed that policy already (record-v1 R10), so the check is not paid twice.
  // Steps 4–6 (§5.4.4): Gamma must decode and s be below q.
  const gammaBytes = proof.subarray(0, POINT)
  const c = proof.subarray(POINT, POINT + CHALLENGE)
  const s = proof.subarray(POINT + CHALLENGE)
  if (!isCanonicalScalar(s)) return undefined
  const gamma8 = timesCofactor(sodium, gammaBytes)
  if (gamma8 === undefined) return undefined
  try {
    // Step 7, then steps 8–9: U = s*B − c*Y, V = s*H − c*Gamma.
    const h = encodeToCurve(sodium, publicKey, alpha)
    if (h === undefined) return ecvrfVerify(publicKey, proof, alpha)
    const c32 = new Uint8Array(32)
    c32.set(c)
    const sb = new Uint8Array(POINT)
    const cy = new Uint8Array(POINT)
    const sh = new Uint8Array(POINT)
    const cg = new Uint8Array(POINT)
    sodium.crypto_scalarmult_ed25519_base_noclamp(sb, s)
    sodium.crypto_scalarmult_ed25519_noclamp(cy, c32, publicKey)
    sodium.crypto_scalarmult_ed25519_noclamp(sh, s, h)
    sodium.crypto_scalarmult_ed25519_noclamp(cg, c32, gammaBytes)
    sodium.crypto_core_ed25519_sub(sb, sb, cy)
    sodium.crypto_core_ed25519_sub(sh, sh, cg)
    // Steps 10–11: valid iff c = challenge_generation(Y, H, Gamma, U, V).
    const expected = sha512(CHALLENGE_PREFIX, publicKey, h, gammaBytes, sb, sh, BACK).subarray(0, CHALLENGE)
    return Buffer.compare(expected, c) === 0 ? betaOf(gamma8) : undefined
  } catch {
    // A key the policy refuses, a torsioned Gamma, a zero scalar or an identity result: the
    // portable implementation decides.
    return ecvrfVerify(publicKey, proof, alpha)
  }
}

/** ecvrfProofToHash through libsodium (the same beta), else the portable one (which also throws its errors). */
export function vrfProofToHashNative (proof: Uint8Array): Uint8Array {
  if (sodium === undefined || proof.length !== ECVRF_PROOF_BYTES || !isCanonicalScalar(proof.subarray(POINT + CHALLENGE))) return ecvrfProofToHash(proof)
  const gamma8 = timesCofactor(sodium, proof.subarray(0, POINT))
  return gamma8 === undefined ? ecvrfProofToHash(proof) : betaOf(gamma8)
}

/** §5.2: SHA-512(suite || 0x03 || point_to_string(cofactor*Gamma) || 0x00). */
function betaOf (gamma8: Uint8Array): Uint8Array {
  return new Uint8Array(sha512(HASH_PREFIX, gamma8, BACK))
}

/**
 * §5.4.1.1 try and increment, with libsodium's point addition as the decoder: it decodes and checks
 * the curve equation, and refuses an x that does not exist; RFC 8032 §5.1.3's two other failures
 * (y ≥ p, and x = 0 with the sign bit set) are checked first, as libsodium accepts those.
 * H = 8 · the candidate by three doublings. Undefined in the 2^-256 case where no ctr works.
 */
function encodeToCurve (core: SodiumCore, publicKey: Uint8Array, alpha: Uint8Array): Uint8Array | undefined {
  const tail = new Uint8Array(2)
  for (let ctr = 0; ctr < 256; ctr++) {
    tail[0] = ctr
    const h = timesCofactor(core, sha512(ENCODE_PREFIX, publicKey, alpha, tail).subarray(0, POINT))
    if (h !== undefined) return h
  }
  return undefined
}

/** 8 · the point `bytes` encodes (RFC 8032 §5.1.3, strict), or undefined when they encode none. */
function timesCofactor (core: SodiumCore, bytes: Uint8Array): Uint8Array | undefined {
  if (!isCanonicalEncoding(bytes)) return undefined
  const point = new Uint8Array(POINT)
  try {
    core.crypto_core_ed25519_add(point, bytes, bytes)
  } catch {
    return undefined
  }
  core.crypto_core_ed25519_add(point, point, point)
  core.crypto_core_ed25519_add(point, point, point)
  return point
}

/**
 * RFC 8032 §5.1.3's refusals that libsodium's decoder lets through: y ≥ p = 2^255 − 19 (bytes 1–30
 * all 0xff, byte 31 0x7f or 0xff, byte 0 ≥ 0xed), and x = 0 with the sign bit set, which happens
 * only for y = 1 and y = p − 1.
 */
function isCanonicalEncoding (bytes: Uint8Array): boolean {
  const top = (bytes[31] ?? 0) & 0x7f
  let middleFull = true
  let middleZero = true
  for (let i = 1; i < 31; i++) {
    if (bytes[i] !== 0xff) middleFull = false
    if (bytes[i] !== 0) middleZero = false
  }
  const first = bytes[0] ?? 0
  if (top === 0x7f && middleFull && first >= 0xed) return false
  if ((bytes[31] ?? 0) >= 0x80) {
    if (top === 0 && middleZero && first === 1) return false // y = 1
    if (top === 0x7f && middleFull && first === 0xec) return false // y = p − 1
  }
  return true
}

/** s < q, compared from the most significant byte (§5.4.4). */
function isCanonicalScalar (s: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const a = s[i] ?? 0
    const b = GROUP_ORDER_LE[i] ?? 0
    if (a !== b) return a < b
  }
  return false
}

/** RFC 8032 §5.1.5's clamp of the first half of SHA-512(SK). */
function clamp (scalar: Uint8Array): void {
  scalar[0] = (scalar[0] ?? 0) & 248
  scalar[31] = ((scalar[31] ?? 0) & 127) | 64
}

/**
 * out (64 bytes, zeroed) = a · b, little-endian, by 16-bit limbs: a fixed sequence of operations
 * whatever the values (the product involves the secret scalar), each partial sum below 2^53.
 */
function multiplyInto (out: Uint8Array, a: Uint8Array, b: Uint8Array): void {
  const limbs = new Array<number>(32).fill(0)
  const la = a.length >> 1
  const lb = b.length >> 1
  for (let i = 0; i < la; i++) {
    const ai = (a[2 * i] ?? 0) | ((a[2 * i + 1] ?? 0) << 8)
    for (let j = 0; j < lb; j++) {
      limbs[i + j] = (limbs[i + j] ?? 0) + ai * ((b[2 * j] ?? 0) | ((b[2 * j + 1] ?? 0) << 8))
    }
  }
  let carry = 0
  for (let i = 0; i < 32; i++) {
    const value = (limbs[i] ?? 0) + carry
    const low = value % 65536
    carry = (value - low) / 65536
    out[2 * i] = low & 0xff
    out[2 * i + 1] = low >>> 8
  }
}
