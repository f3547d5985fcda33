import { HASH_BYTES } from './constants.js'
import { hashToHex } from './hash.js'
import type { PerfectNode } from './tree-math.js'

/*
 * Key layout of a MerkleLog in its MerkleNodeStore (transparency-v1 §3; in the node, a sublevel of
 * `.memory/index/`, rebuilt like every index from the ledgers):
 *
 *   size                     → tree size, 8 bytes big-endian
 *   c/<leaf index>           → the leaf's column: its leaf hash, then the hash of every perfect
 *                              subtree that leaf completes (the one of 2^level leaves ending at it,
 *                              for level 1 … the number of trailing one bits of the index), each
 *                              32 bytes at offset level·32; written once, with the leaf. One entry
 *                              per leaf instead of one per node: half the writes, the same reads
 *   l/<hex of leaf hash>     → leaf index, 8 bytes big-endian: leaf data → position, so a record is
 *                              proven by its id, and an append is idempotent by leaf data
 *
 * Levels and indexes are decimal: keys are only ever read one by one, never scanned in order.
 */

export const SIZE_KEY = 'size'

/** Where a perfect subtree's hash is stored: the column of its last leaf, at offset level·32. */
export interface NodeLocation {
  key: string
  offset: number
}

export function nodeLocation ({ level, index }: PerfectNode): NodeLocation {
  return { key: columnKey((index + 1) * 2 ** level - 1), offset: level * HASH_BYTES }
}

export function columnKey (leafIndex: number): string {
  return `c/${leafIndex}`
}

/** A name of the node, for the cache and for messages. */
export function nodeName ({ level, index }: PerfectNode): string {
  return `${level}/${index}`
}

/** `l/` and the lower-case hex of a 32-byte leaf hash (`l/${hashToHex(leafHash)}`). */
export function leafIndexKey (leafHash: Uint8Array): string {
  if (leafHash.length !== HASH_BYTES) return `l/${hashToHex(leafHash)}`
  // Built as ASCII bytes in one reused buffer and decoded once: one string per leaf, where joining
  // 32 two-digit pieces made a chain of 32 intermediate strings (an append computes one key per leaf).
  for (let i = 0; i < HASH_BYTES; i++) {
    const byte = leafHash[i] as number
    LEAF_KEY_ASCII[2 + 2 * i] = HEX_DIGITS[byte >>> 4] as number
    LEAF_KEY_ASCII[3 + 2 * i] = HEX_DIGITS[byte & 0x0f] as number
  }
  return ASCII.decode(LEAF_KEY_ASCII)
}

const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef')
/** `l/` then 64 hex digits, rewritten by every leafIndexKey call. */
const LEAF_KEY_ASCII = new Uint8Array(2 + 2 * HASH_BYTES)
LEAF_KEY_ASCII.set(new TextEncoder().encode('l/'))
const ASCII = new TextDecoder()

const TWO_32 = 2 ** 32

/** A safe integer as 8 bytes big-endian (the RFC 6962 / TLS uint64 byte order). */
export function encodeUint64 (value: number): Uint8Array {
  // Byte by byte rather than through a DataView: one per leaf on the append path, and a DataView
  // costs more than the eight stores (an 8-byte array lives on V8's heap, no backing store).
  const bytes = new Uint8Array(8)
  const high = Math.floor(value / TWO_32)
  const low = value % TWO_32
  bytes[0] = high >>> 24
  bytes[1] = (high >>> 16) & 0xff
  bytes[2] = (high >>> 8) & 0xff
  bytes[3] = high & 0xff
  bytes[4] = low >>> 24
  bytes[5] = (low >>> 16) & 0xff
  bytes[6] = (low >>> 8) & 0xff
  bytes[7] = low & 0xff
  return bytes
}

/** The inverse of encodeUint64, or undefined for anything but 8 bytes holding a safe integer. */
export function decodeUint64 (bytes: Uint8Array): number | undefined {
  if (bytes.length !== 8) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8)
  const value = view.getUint32(0) * TWO_32 + view.getUint32(4)
  return Number.isSafeInteger(value) ? value : undefined
}
