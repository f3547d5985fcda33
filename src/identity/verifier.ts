import { assertSignatureShape, hasCanonicalScalar, isAcceptableCommitment, isAcceptablePublicKey, noble } from './ed25519.js'

/**
 * An Ed25519 verifier with the project's strict RFC 8032 policy (DESIGN §1): canonical S, canonical
 * point encodings, small-order and mixed-order keys refused. `verify` returns false for a well-formed
 * bad signature and throws (SIGNATURE_MALFORMED / KEY_INVALID) only for wrong lengths.
 * Two implementations exist and must agree on every vector (test/unit/identity/verifiers.test.ts).
 */
export interface SignatureVerifier {
  readonly name: string
  verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
}

/** Portable verifier (browser, dashboard): @noble/ed25519's strict branch plus the subgroup checks. */
export const nobleVerifier: SignatureVerifier = {
  name: 'noble',
  verify (signature, message, publicKey) {
    assertSignatureShape(signature, publicKey)
    if (!hasCanonicalScalar(signature) || !isAcceptablePublicKey(publicKey)) return false
    if (!noble.verify(signature, message, publicKey, { zip215: false })) return false
    // noble checks the cofactored equation [8]SB = [8]R + [8]kA; a torsion component in R would pass
    // it and fail OpenSSL's cofactorless check, so such R is refused here too.
    return isAcceptableCommitment(signature)
  }
}
