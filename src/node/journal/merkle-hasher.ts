import { hash } from 'node:crypto'
import { HASH_BYTES, type MerkleHasher } from '../../merkle/index.js'

/*
 * RFC 6962 §2.1 hashing with SHA-256 from node:crypto (OpenSSL, one call per hash) for the node's
 * Merkle log: the same bytes as the merkle folder's @noble/hashes functions, which stay the default
 * there because that folder also runs in a browser (like src/record/native-cid.ts for record ids).
 */

const LEAF_PREFIX = 0x00
const NODE_PREFIX = 0x01

function sha256 (input: Uint8Array): Uint8Array {
  const digest = hash('sha256', input, 'buffer')
  // A plain Uint8Array over the digest's bytes: proofs and roots are compared and copied as such.
  return new Uint8Array(digest.buffer, digest.byteOffset, HASH_BYTES)
}

export const nativeMerkleHasher: MerkleHasher = {
  leaf: (data) => {
    const input = new Uint8Array(1 + data.length)
    input[0] = LEAF_PREFIX
    input.set(data, 1)
    return sha256(input)
  },
  children: (left, right) => {
    const input = new Uint8Array(1 + 2 * HASH_BYTES)
    input[0] = NODE_PREFIX
    input.set(left, 1)
    input.set(right, 1 + HASH_BYTES)
    return sha256(input)
  }
}
