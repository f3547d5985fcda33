import { createPublicKey, verify as opensslVerify, type KeyObject } from 'node:crypto'
import { assertSignatureShape, cachedByPublicKey, decodeAcceptablePublicKey, hasCanonicalScalar } from '../identity/index.js'
import type { RecordFastPaths, RecordVerifier } from '../record/index.js'
import { NODE_RECORD_FAST_PATHS } from './native-cid.js'
import { sodiumVerify } from './sodium.js'
import { checkSoon } from './verify-threads.js'

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4); the 32 key bytes follow. */
const SPKI_ED25519_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])
const KEY_OBJECT_CACHE_SIZE = 4096
/** Per public key: its KeyObject, or null when the key policy refuses it. One lookup per verify. */
const keyObjects = new Map<string, KeyObject | null>()

const keyObjectOf = (publicKey: Uint8Array): KeyObject | null => decodeAcceptablePublicKey(publicKey) === undefined
  ? null
  : createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' })

function acceptedKeyObject (publicKey: Uint8Array): KeyObject | null {
  return cachedByPublicKey(keyObjects, KEY_OBJECT_CACHE_SIZE, publicKey, keyObjectOf)
}

/**
 * The policy checks in front of OpenSSL, shared by both forms of the verifier: throws on wrong
 * lengths, and returns the key to hand to OpenSSL, or null when the verdict is already false.
 */
function keyForOpenssl (signature: Uint8Array, publicKey: Uint8Array): KeyObject | null {
  assertSignatureShape(signature, publicKey)
  // RFC 8032 §5.1.7 step 1; OpenSSL checks S < L too, but this is cheaper than a failed verify.
  if (!hasCanonicalScalar(signature)) return null
  return acceptedKeyObject(publicKey)
}

/**
 * The fast verifier of the node: OpenSSL through node:crypto, which checks the cofactorless
 * equation and compares R as bytes (so non-canonical R and R with a torsion component already
 * fail), with libsodium in front of it where sodium-native loads (sodium.ts: the same verdicts,
 * ~1.7× faster; a signature libsodium refuses is checked again by OpenSSL, whose verdict stands).
 * OpenSSL alone accepts what the policy refuses — small-order keys, non-canonical key encodings
 * (it reduces y mod p), mixed-order keys when 8 | k (vectors a-small-order-*, a-noncanonical-*,
 * a-mixed-order-8-k-divisible) — so the scalar and key checks run first, and its verdicts equal
 * nobleVerifier's on every input.
 *
 * `verifyAsync` runs the same checks on this thread, then hands the signature to OpenSSL off this
 * thread (verify-threads.ts): to verifier threads, which the first burst of checks starts (until
 * then, to node:crypto's callback form on libuv's pool). A node verifying a batch uses every core.
 */
export const nodeCryptoVerifier: RecordVerifier & { readonly recordFastPaths: RecordFastPaths } = {
  name: 'node:crypto',
  // The record pipeline's other steps, the node's way (native-cid.ts): they travel with the verifier,
  // so every caller that verifies with it gets them.
  recordFastPaths: NODE_RECORD_FAST_PATHS,
  verify (signature, message, publicKey) {
    const key = keyForOpenssl(signature, publicKey)
    if (key === null) return false
    // libsodium first when it is loaded; only its refusals go on to OpenSSL (sodium.ts says why).
    if (sodiumVerify(signature, message, publicKey) === true) return true
    try {
      return opensslVerify(null, message, key, signature)
    } catch {
      return false
    }
  },
  verifyAsync (signature, message, publicKey) {
    // The executor runs now: the policy checks happen on this thread before this returns (a length
    // error rejects, a refusal resolves false), and only a signature worth checking is queued, as
    // a copy, so the caller may reuse its buffers at once.
    return new Promise<boolean>((resolve) => {
      const key = keyForOpenssl(signature, publicKey)
      if (key === null) {
        resolve(false)
        return
      }
      checkSoon(signature, message, publicKey, key, resolve)
    })
  }
}
