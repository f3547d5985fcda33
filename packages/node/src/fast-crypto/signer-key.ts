import { hash } from 'node:crypto'
import { decodeDidKey, ED25519_SECRET_KEY_BYTES, publicKeyCacheKey, publicKeyOfSeed } from '../identity/index.js'
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
  keepBounded(keys, SIGNER_KEY_CACHE_SIZE, did, publicKey)
  return publicKey
}

/** Sets `key` in `cache`, first letting the oldest entry go when the cache holds `limit`. */
function keepBounded (cache: Map<string, Uint8Array>, limit: number, key: string, value: Uint8Array): void {
  if (cache.size >= limit) {
    const oldest = cache.keys().next()
    if (oldest.done !== true) cache.delete(oldest.value)
  }
  cache.set(key, value)
}

/**
 * publicKeyOfSeed through a bounded cache: deriving the key is a scalar multiplication, half the
 * cost of a signature, and signRecord checks the signer's key on every call (BENCHMARKS.md,
 * figure 2). Keyed by SHA-256 of the seed, so the cache holds no secret material. Length errors
 * throw as publicKeyOfSeed does; the returned bytes are a copy the caller may write to.
 */
export function publicKeyOfSeedCached (seed: Uint8Array): Uint8Array {
  if (seed.length !== ED25519_SECRET_KEY_BYTES) return publicKeyOfSeed(seed)
  const cacheKey = publicKeyCacheKey(hash('sha256', seed, 'buffer'))
  let publicKey = seedPublicKeys.get(cacheKey)
  if (publicKey === undefined) {
    publicKey = publicKeyOfSeed(seed)
    keepBounded(seedPublicKeys, SEED_PUBLIC_KEY_CACHE_SIZE, cacheKey, publicKey)
  }
  return Uint8Array.from(publicKey)
}
