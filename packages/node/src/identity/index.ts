export * from './did-key.js'
export {
  assertSignatureShape, cachedByPublicKey, decodeAcceptablePublicKey, ED25519_SECRET_KEY_BYTES, ED25519_SIGNATURE_BYTES, GROUP_ORDER_LE,
  hasCanonicalScalar, isAcceptablePublicKey, keyPairFromSeed, publicKeyCacheKey, publicKeyOfSeed,
  signBytes, verifyStrict, type EdwardsPoint, type KeyPair
} from './ed25519.js'
export * from './signature-verifier.js'
export {
  assertEcvrfProofLength, ECVRF_OUTPUT_BYTES, ECVRF_PROOF_BYTES, ECVRF_SUITE, ecvrfProofToHash, ecvrfProve, ecvrfVerify, ecvrfEncodeToCurve
} from './ecvrf.js'
