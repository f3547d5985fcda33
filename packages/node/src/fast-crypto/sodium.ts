import { createRequire } from 'node:module'

/*
 * libsodium (sodium-native) as the fast path of nodeCryptoVerifier: its Ed25519 verification is
 * ~1.7× faster than OpenSSL's through node:crypto on the machines measured (BENCHMARKS.md,
 * "Crypto and verification"), and a node checks every record's signature once. It computes the same cofactorless
 * equation as OpenSSL (R must equal the encoding of [S]B − [k]A, byte for byte) and refuses more:
 * a non-canonical S or key, a small-order key, and a small-order R. The project's policy checks
 * (node-verifier.ts) refuse the first three before any library is asked; a small-order R is the one
 * case where libsodium says no and the policy may say yes (vector r-identity: R = 0 with S = k·a,
 * a genuine signature). So libsodium's "valid" is final, and its "invalid" is confirmed by OpenSSL
 * (node-verifier.ts, and the verifier threads of verify-threads.ts): the verdicts are OpenSSL's on
 * every input, and a valid signature costs one check.
 *
 * It also signs (sign-native.ts): deterministic RFC 8032, the same bytes as @noble/curves gives.
 *
 * Loaded at run time through require, so a platform without a prebuilt binary keeps OpenSSL alone.
 */

/** The two functions of sodium-native used here. */
interface SodiumEd25519 {
  crypto_sign_verify_detached: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
  /** RFC 8032 signing with a 64-byte secret key: the seed, then its public key. */
  crypto_sign_detached: (signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array) => void
}

const require = createRequire(import.meta.url)

function load (): { path: string, sodium: SodiumEd25519 } | undefined {
  try {
    const path = require.resolve('sodium-native')
    const sodium = require(path) as SodiumEd25519
    if (typeof sodium.crypto_sign_verify_detached !== 'function' || typeof sodium.crypto_sign_detached !== 'function') return undefined
    return { path, sodium }
  } catch {
    return undefined
  }
}

const loaded = load()

/** The resolved module path of sodium-native, for verifier threads to load; undefined without it. */
export const sodiumModulePath: string | undefined = loaded?.path

/** Which library checks a signature first on this thread: 'libsodium', or 'openssl' without it. */
export const signatureBackend: 'libsodium' | 'openssl' = loaded === undefined ? 'openssl' : 'libsodium'

/**
 * libsodium's verdict, or undefined when libsodium is not loaded. Lengths must have been checked
 * (sodium-native asserts them with plain Errors).
 */
export function sodiumVerify (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean | undefined {
  return loaded?.sodium.crypto_sign_verify_detached(signature, message, publicKey)
}

/**
 * libsodium's RFC 8032 signature of `message` under `secretKey` (the seed, then its public key:
 * libsodium's 64-byte form), or undefined when libsodium is not loaded. Lengths must have been checked.
 */
export function sodiumSign (message: Uint8Array, secretKey: Uint8Array): Uint8Array | undefined {
  if (loaded === undefined) return undefined
  const signature = new Uint8Array(64)
  loaded.sodium.crypto_sign_detached(signature, message, secretKey)
  return signature
}
