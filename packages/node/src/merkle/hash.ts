import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { IsnadError } from '../errors/index.js'
import { HASH_BYTES, LEAF_PREFIX, NODE_PREFIX } from './constants.js'

/*
 * The hashing of RFC 6962 §2.1 (the same in RFC 9162 §2.1.1). @noble/hashes rather than node:crypto,
 * so the pure core runs in a browser too (the dashboard verifies proofs); no I/O, clock or randomness.
 */

/** MTH({}) = SHA-256() (RFC 6962 §2.1): the root of the empty tree, e3b0c442…b855. */
export const EMPTY_ROOT: Readonly<Uint8Array> = sha256(new Uint8Array(0))

/** MTH({d(0)}) = SHA-256(0x00 ‖ d(0)) (RFC 6962 §2.1). Any bytes, the empty string included. */
export function hashLeaf (data: Uint8Array): Uint8Array {
  return sha256.create().update(Uint8Array.of(LEAF_PREFIX)).update(data).digest()
}

/** SHA-256(0x01 ‖ left ‖ right) (RFC 6962 §2.1): an interior node from its two children. */
export function hashChildren (left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(childrenInput(CHILDREN_SCRATCH, left, right))
}

/**
 * The input of hashChildren, rewritten by every call: the hash is taken before it returns and keeps
 * nothing of its input, so one buffer serves every node (two children of 32 bytes, the only size
 * RFC 6962 has) instead of a new one each time.
 */
const CHILDREN_SCRATCH = new Uint8Array(1 + 2 * HASH_BYTES)

/**
 * 0x01 ‖ left ‖ right, written into `scratch` (1 + 2·32 bytes) and returned when both are hashes;
 * anything else is laid out as ever in a new array, so no byte of an earlier input can remain.
 */
function childrenInput (scratch: Uint8Array, left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = left.length === HASH_BYTES && right.length === HASH_BYTES ? scratch : new Uint8Array(1 + 2 * HASH_BYTES)
  input[0] = NODE_PREFIX
  input.set(left, 1)
  input.set(right, 1 + HASH_BYTES)
  return input
}

/**
 * 0x00 ‖ data, written into `scratch` when it fits exactly (a record's leaf is its 36-byte CID) and
 * returned; data of any other length is laid out in a new array.
 */
function leafInput (scratch: Uint8Array, data: Uint8Array): Uint8Array {
  const input = data.length + 1 === scratch.length ? scratch : new Uint8Array(1 + data.length)
  input[0] = LEAF_PREFIX
  input.set(data, 1)
  return input
}

/** @default 36 — the leaf data of a record (its CID, leaf.ts): hashed from the hasher's own buffer. */
const RECORD_LEAF_BYTES = 36

/**
 * The two hashes of RFC 6962 §2.1, as a MerkleLog computes them: these functions by default; a node
 * passes SHA-256 through OpenSSL (same bytes, about a third of the CPU), which this folder cannot
 * import because it also runs in a browser.
 */
export interface MerkleHasher {
  leaf: (data: Uint8Array) => Uint8Array
  children: (left: Uint8Array, right: Uint8Array) => Uint8Array
}

export const DEFAULT_HASHER: MerkleHasher = { leaf: hashLeaf, children: hashChildren }

/**
 * The RFC 6962 hashes over another SHA-256 implementation (one call per hash, same bytes).
 * `sha256Of` must be synchronous and keep nothing of its input: the hasher writes each input into
 * buffers of its own that the next hash overwrites, rather than allocating one per hash.
 */
export function merkleHasherOf (sha256Of: (input: Uint8Array) => Uint8Array): MerkleHasher {
  const leafScratch = new Uint8Array(1 + RECORD_LEAF_BYTES)
  const childrenScratch = new Uint8Array(1 + 2 * HASH_BYTES)
  return {
    leaf: (data) => sha256Of(leafInput(leafScratch, data)),
    children: (left, right) => sha256Of(childrenInput(childrenScratch, left, right))
  }
}

export function isHash (value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === HASH_BYTES
}

/** Malformed input throws PROOF_MALFORMED; `what` names the argument at fault. */
export function assertHash (value: unknown, what: string): asserts value is Uint8Array {
  if (!isHash(value)) {
    const got = value instanceof Uint8Array ? `${value.length} bytes` : typeof value
    throw new IsnadError('PROOF_MALFORMED', `${what} must be a ${HASH_BYTES}-byte hash, got ${got}`)
  }
}

export function equalHashes (a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}

/** Lower-case hex, the spelling of hashes in proofs and checkpoints (transparency-v1 R3). */
export function hashToHex (hash: Uint8Array): string {
  return bytesToHex(hash)
}

const HEX_HASH = /^[0-9a-f]{64}$/

/** Exactly 64 lower-case hex digits to 32 bytes; anything else throws PROOF_MALFORMED (R3). */
export function hashFromHex (text: string, what = 'hash'): Uint8Array {
  if (typeof text !== 'string' || !HEX_HASH.test(text)) {
    throw new IsnadError('PROOF_MALFORMED', `${what} must be 64 lower-case hex digits`)
  }
  return hexToBytes(text)
}
