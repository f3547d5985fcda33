import { cachedByPublicKey, decodeAcceptablePublicKey, verifyStrict, type EdwardsPoint } from './ed25519.js'

/**
 * An Ed25519 verifier with the project's strict RFC 8032 policy (record-v1 §3.4): canonical S, canonical
 * point encodings, small-order and mixed-order keys refused, R with a torsion component refused.
 * `verify` returns false for a well-formed bad signature and throws (SIGNATURE_MALFORMED /
 * KEY_INVALID) only for wrong lengths. Two implementations exist and must agree on every vector
 * (test/unit/identity/verifiers.test.ts over protocols/vectors/ed25519/).
 */
export interface SignatureVerifier {
  readonly name: string
  verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
  /**
   * The same verdict as `verify`, delivered later: an implementation may check the signature off the
   * calling thread (node:crypto on libuv's thread pool), so a batch of verifications uses every core
   * while this thread decodes and stores. Wrong lengths reject with the codes `verify` throws.
   * Optional: callers fall back to `verify` (verifySignatureAsync).
   */
  verifyAsync?: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => Promise<boolean>
}

/**
 * `verifier.verifyAsync` when it has one, else `verifier.verify` as a promise; either way a throw
 * becomes a rejection, so callers handle one failure path.
 */
export function verifySignatureAsync (verifier: SignatureVerifier, signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
  try {
    return verifier.verifyAsync === undefined
      ? Promise.resolve(verifier.verify(signature, message, publicKey))
      : verifier.verifyAsync(signature, message, publicKey)
  } catch (err) {
    return Promise.reject(err)
  }
}

/**
 * Portable verifier (browser, dashboard): @noble/curves' point arithmetic, no node:crypto.
 * It does not call noble's own `verify`, which checks the cofactored equation
 * [8][S]B = [8]R + [8][k]A: that passes for an R with a torsion component (vector
 * r-torsion-component-8), which OpenSSL's cofactorless check refuses, and ruling such R out after
 * the fact costs a second full scalar multiplication. verifyStrict checks the cofactorless equation
 * the way OpenSSL does, so the two verifiers agree by construction and this one is twice as fast.
 * `verifyAsync` is the same computation on this thread: noble has no thread to move it to.
 * This one keeps nothing between calls; createNobleVerifier gives one that remembers decoded keys.
 */
export const nobleVerifier: SignatureVerifier = Object.freeze({
  name: 'noble',
  verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => verifyStrict(signature, message, publicKey),
  verifyAsync: async (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => verifyStrict(signature, message, publicKey)
})

/**
 * @default 4096 — public keys whose decoded point (or refusal) a createNobleVerifier instance keeps;
 * the cache is cleared when full.
 */
export const NOBLE_KEY_CACHE_SIZE = 4096

/**
 * nobleVerifier with a memo of decoded, policy-checked public keys owned by the instance: the
 * subgroup check costs a full scalar multiplication, and a verifier of many signatures sees few keys.
 * Same verdicts as nobleVerifier on every input.
 */
export function createNobleVerifier (init: { keyCacheSize?: number } = {}): SignatureVerifier {
  const keyCacheSize = init.keyCacheSize ?? NOBLE_KEY_CACHE_SIZE
  const keys = new Map<string, EdwardsPoint | null>()
  const decodeOrNull = (publicKey: Uint8Array): EdwardsPoint | null => decodeAcceptablePublicKey(publicKey) ?? null
  const acceptableKey = (publicKey: Uint8Array): EdwardsPoint | undefined => cachedByPublicKey(keys, keyCacheSize, publicKey, decodeOrNull) ?? undefined
  const verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean => verifyStrict(signature, message, publicKey, acceptableKey)
  return {
    name: 'noble',
    verify,
    verifyAsync: async (signature, message, publicKey) => verify(signature, message, publicKey)
  }
}
