import { hash } from 'node:crypto'
import { HASH_BYTES, merkleHasherOf } from '../../merkle/index.js'

/*
 * RFC 6962 §2.1 hashing with SHA-256 from node:crypto (OpenSSL, one call per hash) for the node's
 * Merkle log: the same bytes as the merkle folder's @noble/hashes functions, which stay the default
 * there because that folder also runs in a browser (like src/fast-crypto/native-cid.ts for record ids).
 *
 * The digest comes back as a 'binary' (latin1) string, one character per byte, and is copied into
 * Node's shared buffer pool: about half the CPU of asking hash() for a Buffer, which allocates an
 * ArrayBuffer of its own (a backing store for the GC to sweep) for every 32-byte digest, and an
 * append hashes about two per leaf.
 */
export const nativeMerkleHasher = merkleHasherOf((input) => {
  const digest = Buffer.from(hash('sha256', input, 'binary'), 'latin1')
  // A plain Uint8Array over the digest's bytes: proofs and roots are compared and copied as such.
  return new Uint8Array(digest.buffer, digest.byteOffset, HASH_BYTES)
})
