export * from './did-key.js'
export { keyPairFromSeed, signBytes, ED25519_SECRET_KEY_BYTES, ED25519_SIGNATURE_BYTES, type KeyPair } from './ed25519.js'
export * from './verifier.js'
export { nodeCryptoVerifier } from './node-verifier.js'
