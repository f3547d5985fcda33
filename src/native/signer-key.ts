import { decodeDidKey } from '../identity/index.js'
import { SIGNER_KEY_CACHE_SIZE } from './constants.js'

const keys = new Map<string, Uint8Array>()

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
