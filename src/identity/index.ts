export * from './did-key.js'
export { keyPairFromSeed, publicKeyOfSeed, signBytes, SEED_PUBLIC_KEY_CACHE_SIZE, ED25519_SECRET_KEY_BYTES, ED25519_SIGNATURE_BYTES, type KeyPair } from './ed25519.js'
export * from './verifier.js'
export { nodeCryptoVerifier } from './node-verifier.js'
