import { Buffer } from 'node:buffer'
import { hash } from 'node:crypto'
import type { CID } from 'multiformats/cid'
import { cidOfDigest, type RecordFastPaths } from '../record/index.js'
import { verifyBytesOnThreads } from './record-threads.js'
import { encodeSignedIntoScratch } from './scratch-encoding.js'
import { publicKeyOfSeedCached, signerKeyOf } from './signer-key.js'
import { signNative } from './sign-native.js'
import { vrfProofToHashNative, vrfProveNative, vrfVerifyNative } from './vrf-native.js'

/** SHA-256 by OpenSSL in one call: about half the CPU of @noble/hashes for a record of a few hundred bytes. */
export function sha256Native (bytes: Uint8Array): Uint8Array {
  return hash('sha256', bytes, 'buffer')
}

/**
 * cidOfBytes with SHA-256 from node:crypto (OpenSSL) instead of @noble/hashes, paid by every record
 * verified or stored. src/record stays free of node:crypto because the dashboard's browser bundle
 * shares it; the node injects this through NODE_RECORD_FAST_PATHS.
 */
export function cidOfBytesNative (bytes: Uint8Array): CID {
  return cidOfDigest(sha256Native(bytes))
}

/**
 * Byte equality by one native comparison: every record received is compared with its re-encoding,
 * and the network compares received messages with what it verified.
 */
export function sameBytes (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0
}

/** The node's fast paths of the record pipeline (src/record/fast-paths.ts), carried by nodeCryptoVerifier. */
export const NODE_RECORD_FAST_PATHS: RecordFastPaths = Object.freeze({
  sha256: sha256Native,
  encodeSigned: encodeSignedIntoScratch,
  sameBytes,
  publicKeyOf: signerKeyOf,
  publicKeyOfSeed: publicKeyOfSeedCached,
  sign: signNative,
  vrfProve: vrfProveNative,
  vrfVerify: vrfVerifyNative,
  vrfProofToHash: vrfProofToHashNative,
  verifyBytesElsewhere: verifyBytesOnThreads
})
