import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { base16 } from 'multiformats/bases/base16'
import { IsnadError } from '../errors/index.js'
import { ED25519_PUBLIC_KEY_BYTES } from './did-key.js'

// @noble/ed25519 needs a synchronous SHA-512 for its sync API.
ed.hashes.sha512 = sha512

export const ED25519_SECRET_KEY_BYTES = 32
export const ED25519_SIGNATURE_BYTES = 64

/** The group order L (RFC 8032 §5.1). */
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n

export interface KeyPair {
  /** The 32-byte RFC 8032 secret seed. */
  secretKey: Uint8Array
  publicKey: Uint8Array
}

/** A key pair from 32 bytes of caller-supplied randomness (pure code takes its randomness as input). */
export function keyPairFromSeed (seed: Uint8Array): KeyPair {
  if (seed.length !== ED25519_SECRET_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', `an Ed25519 secret key has 32 bytes, got ${seed.length}`)
  }
  const secretKey = Uint8Array.from(seed)
  return { secretKey, publicKey: ed.getPublicKey(secretKey) }
}

/** Deterministic RFC 8032 Ed25519 signature (§5.1.6) with @noble/ed25519. */
export function signBytes (message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== ED25519_SECRET_KEY_BYTES) {
    throw new IsnadError('KEY_INVALID', 'an Ed25519 secret key has 32 bytes')
  }
  return ed.sign(message, secretKey)
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

/** RFC 8032 §5.1.7 step 1: S must be canonical, 0 ≤ S < L. */
export function hasCanonicalScalar (signature: Uint8Array): boolean {
  let s = 0n
  for (let i = ED25519_SIGNATURE_BYTES - 1; i >= 32; i--) s = (s << 8n) | BigInt(signature[i] ?? 0)
  return s < GROUP_ORDER
}

const acceptableKeys = new Map<string, boolean>()
const ACCEPTABLE_KEY_CACHE_SIZE = 4096

/**
 * Strict public key policy shared by both verifiers: canonical encoding (y < p), not of small order,
 * and in the prime-order subgroup. Mixed-order keys are where cofactored (noble) and cofactorless
 * (OpenSSL) verification disagree, so refusing them makes both verdicts identical on every input.
 * Cached, because a node sees few keys and many signatures.
 */
export function isAcceptablePublicKey (publicKey: Uint8Array): boolean {
  const cacheKey = base16.baseEncode(publicKey)
  const cached = acceptableKeys.get(cacheKey)
  if (cached !== undefined) return cached
  let acceptable: boolean
  try {
    const point = ed.Point.fromBytes(publicKey, false)
    acceptable = !point.isSmallOrder() && point.isTorsionFree()
  } catch {
    acceptable = false
  }
  if (acceptableKeys.size >= ACCEPTABLE_KEY_CACHE_SIZE) acceptableKeys.clear()
  acceptableKeys.set(cacheKey, acceptable)
  return acceptable
}

/** R must be a canonical encoding in the prime-order subgroup (see isAcceptablePublicKey). */
export function isAcceptableCommitment (signature: Uint8Array): boolean {
  try {
    return ed.Point.fromBytes(signature.subarray(0, 32), false).isTorsionFree()
  } catch {
    return false
  }
}

export { ed as noble }
