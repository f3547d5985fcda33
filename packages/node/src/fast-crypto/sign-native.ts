import { createPrivateKey, sign as opensslSign, type KeyObject } from 'node:crypto'
import { ED25519_SECRET_KEY_BYTES, signBytes } from '../identity/index.js'
import { publicKeyOfSeedCached } from './signer-key.js'
import { sodiumSign } from './sodium.js'

/*
 * Ed25519 signing for the node (RecordFastPaths.sign): every local `remember`, `attest` and witness
 * answer signs once, and @noble/curves' constant-time signing in JavaScript costs ~1.2 ms a
 * signature here against ~0.04 ms in libsodium (BENCHMARKS.md, "Ingest": local remember). RFC 8032
 * signing is deterministic, so every backend gives the same 64 bytes (test/unit/fast-crypto/fast-paths.test.ts
 * checks RFC 8032 §7.1's vectors and random seeds against signBytes).
 */

/** PKCS #8 DER of an Ed25519 private key (RFC 8410 §7) up to the 32-byte seed that follows it. */
const PKCS8_ED25519_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])

/**
 * signBytes through libsodium, else OpenSSL. The public key half of libsodium's secret key comes
 * from the node's memo of the seed's key (publicKeyOfSeedCached), so a signature costs no scalar
 * multiplication beyond its own. The buffers that held the seed are zeroed before this returns.
 * Errors are signBytes's (a seed of the wrong length: KEY_INVALID).
 */
export function signNative (message: Uint8Array, seed: Uint8Array): Uint8Array {
  if (seed.length !== ED25519_SECRET_KEY_BYTES) return signBytes(message, seed)
  const secretKey = new Uint8Array(64)
  try {
    secretKey.set(seed)
    secretKey.set(publicKeyOfSeedCached(seed), 32)
    return sodiumSign(message, secretKey) ?? signWithOpenssl(message, seed)
  } finally {
    secretKey.fill(0)
  }
}

/** OpenSSL's signature, where sodium-native does not load (exported for its test). The seed's length is checked by the caller. */
export function signWithOpenssl (message: Uint8Array, seed: Uint8Array): Uint8Array {
  return new Uint8Array(opensslSign(null, message, privateKeyOfSeed(seed)))
}

/** node:crypto's Ed25519 private key of a 32-byte seed (through its PKCS #8 DER, zeroed once read). */
export function privateKeyOfSeed (seed: Uint8Array): KeyObject {
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + seed.length)
  try {
    der.set(PKCS8_ED25519_PREFIX)
    der.set(seed, PKCS8_ED25519_PREFIX.length)
    return createPrivateKey({ key: Buffer.from(der.buffer, der.byteOffset, der.length), format: 'der', type: 'pkcs8' })
  } finally {
    der.fill(0)
  }
}
