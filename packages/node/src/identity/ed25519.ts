import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { IsnadError } from '../errors/index.js'
import { ED25519_PUBLIC_KEY_BYTES } from './did-key.js'

/*
 * Key generation and signing are @noble/curves' Ed25519 (RFC 8032 §5.1.5–5.1.6), which carries its
 * own SHA-512: nothing is set globally at import, as this pure folder requires. Verification is
 * verifyStrict below, over the same library's point arithmetic, under the node's strict policy.
 */

export const ED25519_SECRET_KEY_BYTES = 32
export const ED25519_SIGNATURE_BYTES = 64

/** A point of edwards25519 (@noble/curves' class). */
export type EdwardsPoint = ReturnType<typeof ed25519.Point.fromBytes>

/** The group order L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1). */
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n

/**
 * L as the 32 little-endian bytes S is encoded in (RFC 8032 §5.1.6 step 6); big-endian hex
 * 10000000 00000000 00000000 00000000 14def9de a2f79cd6 5812631a 5cf5d3ed.
 * A test checks it against GROUP_ORDER.
 */
export const GROUP_ORDER_LE: Readonly<Uint8Array> = Uint8Array.of(
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10
)

export interface KeyPair {
  /** The 32-byte RFC 8032 secret seed. */
  secretKey: Uint8Array
  publicKey: Uint8Array
}

/** A key pair from 32 bytes of caller-supplied randomness (pure code takes its randomness as input). */
export function keyPairFromSeed (seed: Uint8Array): KeyPair {
  const secretKey = Uint8Array.from(assertSeed(seed))
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) }
}

/**
 * The public key of a 32-byte seed (RFC 8032 §5.1.5), derived afresh: a scalar multiplication, half
 * the cost of a signature. A caller that checks the same seed often (signRecord, on every call) is
 * given a memo of this by the node (src/native, RecordFastPaths.publicKeyOfSeed).
 */
export function publicKeyOfSeed (seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(assertSeed(seed))
}

/** Deterministic RFC 8032 Ed25519 signature (§5.1.6). */
export function signBytes (message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== ED25519_SECRET_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', 'an Ed25519 secret key has 32 bytes')
  }
  return ed25519.sign(message, secretKey)
}

function assertSeed (seed: Uint8Array): Uint8Array {
  if (seed.length !== ED25519_SECRET_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an Ed25519 secret key has 32 bytes, got ${seed.length}`)
  }
  return seed
}

/** Throws on wrong lengths: malformed input is an error, a well-formed bad signature is `false`. */
export function assertSignatureShape (signature: Uint8Array, publicKey: Uint8Array): void {
  if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_BYTES) {
    throw new IsnadError('SIGNATURE_MALFORMED', `an Ed25519 signature has 64 bytes, got ${signature?.length}`)
  }
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an Ed25519 public key has 32 bytes, got ${publicKey?.length}`)
  }
}

/**
 * RFC 8032 §5.1.7 step 1: S (bytes 32..63, little-endian) must be canonical, 0 ≤ S < L.
 * Compared with L from the most significant byte down; the first byte that differs decides, and
 * all 32 equal means S = L. No allocation: this runs on every signature the node ingests.
 */
export function hasCanonicalScalar (signature: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const s = signature[32 + i] ?? 0
    const l = GROUP_ORDER_LE[i] ?? 0
    if (s !== l) return s < l
  }
  return false
}

/**
 * A compact Map key for public key bytes, one UTF-16 unit per byte. `apply` takes any array-like
 * (ECMA-262 CreateListFromArrayLike), hence the cast; it measured ~5× faster than spreading the
 * bytes and ~3× faster than building hex, and it runs on every verify.
 */
export function publicKeyCacheKey (publicKey: Uint8Array): string {
  return String.fromCharCode.apply(null, publicKey as unknown as number[])
}

/**
 * The decoded public key if the strict policy accepts it, else undefined: canonical encoding
 * (RFC 8032 §5.1.3: y < p, no x = 0 with the sign bit), not of small order, and in the prime-order
 * subgroup. Small-order keys let anyone forge (R = 0, S = 0 verifies when [k]A = 0); mixed-order
 * keys are where cofactored and cofactorless verification disagree. Refusing both makes every
 * verifier's verdict identical (vectors: protocols/vectors/ed25519/edge-cases.json, a-*).
 */
export function decodeAcceptablePublicKey (publicKey: Uint8Array): EdwardsPoint | undefined {
  try {
    const point = ed25519.Point.fromBytes(publicKey, false)
    return !point.isSmallOrder() && point.isTorsionFree() ? point : undefined
  } catch {
    return undefined
  }
}

/**
 * What `decode` gives for a public key, memoised in `cache` (the caller's) by publicKeyCacheKey: a
 * node sees few keys and many signatures. The cache is cleared, not evicted, when it holds `limit`.
 */
export function cachedByPublicKey<V> (cache: Map<string, V | null>, limit: number, publicKey: Uint8Array, decode: (publicKey: Uint8Array) => V | null): V | null {
  const cacheKey = publicKeyCacheKey(publicKey)
  let value = cache.get(cacheKey)
  if (value === undefined) {
    value = decode(publicKey)
    if (cache.size >= limit) cache.clear()
    cache.set(cacheKey, value)
  }
  return value
}

export function isAcceptablePublicKey (publicKey: Uint8Array): boolean {
  return decodeAcceptablePublicKey(publicKey) !== undefined
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

function numberFromLittleEndian (bytes: Uint8Array): bigint {
  let hex = ''
  for (let i = bytes.length - 1; i >= 0; i--) hex += HEX_BYTES[bytes[i] ?? 0]
  return BigInt('0x' + hex)
}

function equalBytes (a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * RFC 8032 §5.1.7 with @noble/curves' point arithmetic, in the form ref10 and OpenSSL use:
 * k = SHA-512(R ‖ A ‖ M) mod L (step 2), then R must be byte-equal to the canonical encoding of
 * [S]B − [k]A — the cofactorless check that step 3 calls sufficient. That one comparison refuses
 * an R that is non-canonical, off the curve, or has a torsion component ([S]B − [k]A lies in the
 * prime-order subgroup because A does), so this and node:crypto compute the same function.
 * Returns false for any signature the policy refuses; throws only on wrong lengths.
 * `acceptableKey` is decodeAcceptablePublicKey or a memo of it the caller owns (createNobleVerifier):
 * the subgroup check costs a full scalar multiplication.
 */
export function verifyStrict (
  signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array,
  acceptableKey: (publicKey: Uint8Array) => EdwardsPoint | undefined = decodeAcceptablePublicKey
): boolean {
  assertSignatureShape(signature, publicKey)
  if (!hasCanonicalScalar(signature)) return false
  const a = acceptableKey(publicKey)
  if (a === undefined) return false
  const r = signature.subarray(0, 32)
  const k = numberFromLittleEndian(sha512.create().update(r).update(publicKey).update(message).digest()) % GROUP_ORDER
  const s = numberFromLittleEndian(signature.subarray(32))
  // Variable-time multiplication is fine here: everything verified is public.
  const expected = ed25519.Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k))
  return equalBytes(expected.toBytes(), r)
}
