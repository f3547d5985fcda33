import { sha256 } from '@noble/hashes/sha2.js'
import { decodeDidKey, ecvrfProofToHash, ecvrfProve, ecvrfVerify, publicKeyOfSeed, signBytes, type SignatureVerifier } from '../identity/index.js'
import type { ErrorCode } from '../errors/index.js'
import type { IsnadRecord, RecordKind, SignedRecord } from '../schema/index.js'

/** The canonical bytes of `{ record, signature }` written into a buffer the implementation reuses. */
export interface ScratchSignedBytes {
  /** The canonical bytes of `{ record, signature }`: a view valid until the next call. */
  view: Uint8Array
  /** Length of the record's canonical bytes, which start at RECORD_OFFSET in `view`. */
  recordLength: number
}

/**
 * What verifyRecordBytes gave for received bytes when it ran elsewhere (another thread): the
 * record's id, the SHA-256 digest its CID is made of and the decoded record, or the error of the
 * first step that failed, as its code, message and details.
 */
export type RecordBytesVerdict =
  | { id: string, digest: Uint8Array, signed: SignedRecord }
  | { code: ErrorCode, message: string, details?: Record<string, unknown> }

/**
 * The steps of the verification pipeline around the signature that a platform can do faster than
 * the portable code here: the node's implementation (src/native, OpenSSL's SHA-256, a scratch
 * encoder, Buffer.compare, a did:key cache) is injected through the verifier, so this folder
 * imports no Node built-in and holds no state of its own, and runs in a browser as it is.
 * Every implementation gives the same results as PORTABLE_FAST_PATHS on every input
 * (test/unit/fast-crypto/fast-paths.test.ts).
 */
export interface RecordFastPaths {
  /** SHA-256 of a record's canonical bytes, for its CID (record-v1 R1). */
  sha256: (bytes: Uint8Array) => Uint8Array
  /**
   * The canonical bytes of `{ record, signature }` (record-v1 §2.4) or undefined, when the caller is
   * to take the general path (encodeCanonical), which gives the same bytes or the same error.
   */
  encodeSigned: (record: IsnadRecord, signature: string) => ScratchSignedBytes | undefined
  /** Byte equality (record-v1 R18: the bytes received against their re-encoding). */
  sameBytes: (a: Uint8Array, b: Uint8Array) => boolean
  /** The public key of a signer's did:key (record-v1 R10); throws DID_INVALID as decodeDidKey does. */
  publicKeyOf: (did: string) => Uint8Array
  /**
   * The public key of a 32-byte seed (RFC 8032 §5.1.5), as publicKeyOfSeed gives it (a copy the
   * caller may write to); signRecord checks the signer with it.
   */
  publicKeyOfSeed: (seed: Uint8Array) => Uint8Array
  /**
   * The RFC 8032 Ed25519 signature of `message` with a 32-byte seed, as signBytes gives it (signing is
   * deterministic: the same 64 bytes from every implementation) and with its errors; signRecord signs with it.
   */
  sign: (message: Uint8Array, seed: Uint8Array) => Uint8Array
  /**
   * The RFC 9381 ECVRF-EDWARDS25519-SHA512-TAI proof of `alpha` with a 32-byte seed, as ecvrfProve
   * gives it (proving is deterministic: the same 80 bytes from every implementation) and with its
   * errors; the witness draw proves with it (src/draw, protocols/witness-draw-v1.md).
   */
  vrfProve: (seed: Uint8Array, alpha: Uint8Array) => Uint8Array
  /** ecvrfVerify's verdict (beta, or undefined) and errors; the witness draw verifies with it. */
  vrfVerify: (publicKey: Uint8Array, proof: Uint8Array, alpha: Uint8Array) => Uint8Array | undefined
  /** ecvrfProofToHash's beta and errors: the draw's fraction of a proof verified before. */
  vrfProofToHash: (proof: Uint8Array) => Uint8Array
  /**
   * Every step of verifyRecordBytes run off this thread (the node's verifier threads, once running):
   * the bytes are copied before this returns. Undefined when the platform has no such place now (no
   * thread running), or a promise of undefined when it gave up (a thread died): the caller then
   * runs the steps here. Optional: verifyRecordBytesAsync runs them here without it.
   */
  verifyBytesElsewhere?: (bytes: Uint8Array, now: number, expectedKind: RecordKind | undefined) => Promise<RecordBytesVerdict | undefined> | undefined
}

/** A signature verifier that may bring the platform's fast paths for the rest of the pipeline. */
export type RecordVerifier = SignatureVerifier & { readonly recordFastPaths?: RecordFastPaths }

/** Byte equality without Buffer: what a browser runs. */
export function equalBytes (a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The portable paths: @noble/hashes, the general encoder, a byte loop, decodeDidKey and publicKeyOfSeed
 * uncached, @noble/curves' signing and ECVRF.
 */
export const PORTABLE_FAST_PATHS: RecordFastPaths = Object.freeze({
  sha256: (bytes: Uint8Array) => sha256(bytes),
  encodeSigned: () => undefined,
  sameBytes: equalBytes,
  publicKeyOf: decodeDidKey,
  publicKeyOfSeed,
  sign: signBytes,
  vrfProve: ecvrfProve,
  vrfVerify: (publicKey: Uint8Array, proof: Uint8Array, alpha: Uint8Array) => ecvrfVerify(publicKey, proof, alpha),
  vrfProofToHash: ecvrfProofToHash
})

/** The fast paths a verifier brings, else the portable ones. */
export function fastPathsOf (verifier: RecordVerifier): RecordFastPaths {
  return verifier.recordFastPaths ?? PORTABLE_FAST_PATHS
}
