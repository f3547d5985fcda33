import { createPublicKey, verify as opensslVerify, type KeyObject } from 'node:crypto'
import { assertSignatureShape, hasCanonicalScalar, isAcceptablePublicKey } from './ed25519.js'
import type { SignatureVerifier } from './verifier.js'

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4); the 32 key bytes follow. */
const SPKI_ED25519_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])
const KEY_OBJECT_CACHE_SIZE = 4096
const keyObjects = new Map<string, KeyObject>()

function keyObjectFor (publicKey: Uint8Array): KeyObject {
  const cacheKey = Buffer.from(publicKey).toString('latin1')
  let key = keyObjects.get(cacheKey)
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' })
    if (keyObjects.size >= KEY_OBJECT_CACHE_SIZE) keyObjects.clear()
    keyObjects.set(cacheKey, key)
  }
  return key
}

/**
 * The fast verifier of the node: OpenSSL through node:crypto (cofactorless equation). The key policy
 * checks run first, so its verdicts equal nobleVerifier's on every input.
 */
export const nodeCryptoVerifier: SignatureVerifier = {
  name: 'node:crypto',
  verify (signature, message, publicKey) {
    assertSignatureShape(signature, publicKey)
    if (!hasCanonicalScalar(signature) || !isAcceptablePublicKey(publicKey)) return false
    try {
      return opensslVerify(null, message, keyObjectFor(publicKey), signature)
    } catch {
      return false
    }
  }
}
