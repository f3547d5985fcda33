import { hash } from 'node:crypto'
import { HASH_BYTES, merkleHasherOf } from '../../merkle/index.js'

/*
 * RFC 6962 §2.1 hashing with SHA-256 from node:crypto (OpenSSL, one call per hash) for the node's
 * Merkle log: the same bytes as the merkle folder's @noble/hashes functions, which stay the default
 * there because that folder also runs in a browser (like src/record/native-cid.ts for record ids).
 */
export const nativeMerkleHasher = merkleHasherOf((input) => {
  const digest = hash('sha256', input, 'buffer')
  // A plain Uint8Array over the digest's bytes: proofs and roots are compared and copied as such.
  return new Uint8Array(digest.buffer, digest.byteOffset, HASH_BYTES)
})
