import { hash } from 'node:crypto'
import { decodeDidKey, publicKeyCacheKey, publicKeyOfSeed } from '../identity/index.js'
import { SEED_PUBLIC_KEY_CACHE_SIZE, SIGNER_KEY_CACHE_SIZE } from './constants.js'

const keys = new Map<string, Uint8Array>()
const seedPublicKeys = new Map<string, Uint8Array>()

/**
 * The public key of a signer's did:key (record-v1 R10), through a bounded cache: decodeDidKey
 * base58-decodes and re-encodes to refuse non-canonical spellings, which costs more than the rest
 * of the pipeline around the signature check. Only successes are cached, so a DID_INVALID did is
 * refused the same way every time. The returned bytes are shared: callers must not write to them.
 */
export function signerKeyOf (did: string): Uint8Array {
  const cached = keys.get(did)
  if (cached !== undefined) return cached
  const publicKey = decodeDidKey(did)
  if (keys.size >= SIGNER_KEY_CACHE_SIZE) {
    const oldest = keys.keys().next()
    if (oldest.done !== true) keys.delete(oldest.value)
  }
  keys.set(did, publicKey)
  return publicKey
}

/**
 * publicKeyOfSeed through a bounded cache: deriving the key is a scalar multiplication, half the
 * cost of a signature, and signRecord checks the signer's key on every call (BENCHMARKS.md,
 * figure 2). Keyed by SHA-256 of the seed, so the cache holds no secret material. Length errors
 * throw as publicKeyOfSeed does; the returned bytes are a copy the caller may write to.
 */
export function publicKeyOfSeedCached (seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) return publicKeyOfSeed(seed)
  const cacheKey = publicKeyCacheKey(hash('sha256', seed, 'buffer'))
  let publicKey = seedPublicKeys.get(cacheKey)
  if (publicKey === undefined) {
    publicKey = publicKeyOfSeed(seed)
    if (seedPublicKeys.size >= SEED_PUBLIC_KEY_CACHE_SIZE) {
      const oldest = seedPublicKeys.keys().next()
      if (oldest.done !== true) seedPublicKeys.delete(oldest.value)
    }
    seedPublicKeys.set(cacheKey, publicKey)
  }
  return Uint8Array.from(publicKey)
}
