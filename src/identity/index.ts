export * from './did-key.js'
export {
  assertSignatureShape, cachedByPublicKey, decodeAcceptablePublicKey, ED25519_SECRET_KEY_BYTES, ED25519_SIGNATURE_BYTES, GROUP_ORDER_LE,
  hasCanonicalScalar, isAcceptablePublicKey, keyPairFromSeed, publicKeyCacheKey, publicKeyOfSeed, SEED_PUBLIC_KEY_CACHE_SIZE,
  signBytes, verifyStrict, type KeyPair
} from './ed25519.js'
export * from './signature-verifier.js'
