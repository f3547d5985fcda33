export * from './errors/index.js'
export * from './schema/index.js'
export * from './identity/index.js'
export * from './record/index.js'
// The witness draw (protocols/witness-draw-v1.md).
export * from './draw/index.js'
// The node's fast paths of the core (OpenSSL, libsodium, verifier threads), injected through nodeCryptoVerifier.
export { cidOfBytesNative, nodeCryptoVerifier, sameBytes, SIGNER_KEY_CACHE_SIZE } from './fast-crypto/index.js'
export * from './trust/index.js'
export * from './memory-view/index.js'
// Anchors (protocols/anchors-v1.md): UnixFS import as kubo does it, checkers, blockstores.
export * from './anchor/index.js'
// The library API: createNode and the types of its operations.
export * from './library.js'
