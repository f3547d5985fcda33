/*
 * The Node fast paths of the pure core (STYLE "Pure means importable by the browser"): OpenSSL and
 * libsodium for Ed25519 and the ECVRF, verifier threads (signatures, and received records verified whole),
 * OpenSSL's SHA-256 for CIDs, a scratch encoder, and did:key and seed → key caches. The core (src/identity, src/record) defines the interfaces and the portable
 * implementations; the node injects these through nodeCryptoVerifier.
 */
export { nodeCryptoVerifier } from './node-verifier.js'
export { cidOfBytesNative, NODE_RECORD_FAST_PATHS, sameBytes, sha256Native } from './native-cid.js'
export { RECORD_THREAD_CHUNK, RECORD_THREADS_MIN_CPUS, useRecordThreads, verifyBytesOnThreads } from './record-threads.js'
export { encodeSignedIntoScratch } from './scratch-encoding.js'
export { SEED_PUBLIC_KEY_CACHE_SIZE, SIGNER_KEY_CACHE_SIZE } from './constants.js'
export { publicKeyOfSeedCached, signerKeyOf } from './signer-key.js'
export { privateKeyOfSeed } from './sign-native.js'
export { signatureBackend, sodiumModulePath, sodiumVerify } from './sodium.js'
export { MAX_VERIFY_THREADS, runningVerifierThreads, verifierThreadBackends, VERIFY_THREAD_CHUNK, VERIFY_THREADS_MIN_BURST } from './verify-threads.js'
export { startModuleWorker } from './module-worker.js'
export { vrfBackend, vrfProofToHashNative, vrfProveNative, vrfVerifyNative } from './vrf-native.js'
