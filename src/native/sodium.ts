import { createRequire } from 'node:module'

/*
 * libsodium (sodium-native) as the fast path of nodeCryptoVerifier: its Ed25519 verification is
 * ~1.7× faster than OpenSSL's through node:crypto on the machines measured (BENCHMARKS.md,
 * session 6), and a node checks every record's signature once. It computes the same cofactorless
 * equation as OpenSSL (R must equal the encoding of [S]B − [k]A, byte for byte) and refuses more:
 * a non-canonical S or key, a small-order key, and a small-order R. The project's policy checks
 * (node-verifier.ts) refuse the first three before any library is asked; a small-order R is the one
 * case where libsodium says no and the policy may say yes (vector r-identity: R = 0 with S = k·a,
 * a genuine signature). So libsodium's "valid" is final, and its "invalid" is confirmed by OpenSSL
 * (node-verifier.ts, and the verifier threads of verify-threads.ts): the verdicts are OpenSSL's on
 * every input, and a valid signature costs one check.
 *
 * Loaded at run time through require, so a platform without a prebuilt binary keeps OpenSSL alone.
 */

/** The one function of sodium-native used here. */
interface SodiumVerify {
  crypto_sign_verify_detached: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
}

const require = createRequire(import.meta.url)

function load (): { path: string, sodium: SodiumVerify } | undefined {
  try {
    const path = require.resolve('sodium-native')
    const sodium = require(path) as SodiumVerify
    if (typeof sodium.crypto_sign_verify_detached !== 'function') return undefined
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
