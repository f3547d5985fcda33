import { hashToHex } from './hash.js'
import type { PerfectNode } from './tree-math.js'

/*
 * Key layout of a MerkleLog in its MerkleNodeStore (transparency-v1 §3; in the node, a sublevel of
 * `.memory/index/`, rebuilt like every index from the ledgers):
 *
 *   size                     → tree size, 8 bytes big-endian
 *   n/<level>/<index>        → hash of the perfect subtree of 2^level leaves from index·2^level
 *                              (level 0: the leaf hashes), written once, when it is complete
 *   l/<hex of leaf hash>     → leaf index, 8 bytes big-endian: leaf data → position, so a record is
 *                              proven by its id, and an append is idempotent by leaf data
 *
 * Levels and indexes are decimal: keys are only ever read one by one, never scanned in order.
 */

export const SIZE_KEY = 'size'

export function nodeKey ({ level, index }: PerfectNode): string {
  return `n/${level}/${index}`
}

export function leafIndexKey (leafHash: Uint8Array): string {
  return `l/${hashToHex(leafHash)}`
}

const TWO_32 = 2 ** 32

/** A safe integer as 8 bytes big-endian (the RFC 6962 / TLS uint64 byte order). */
export function encodeUint64 (value: number): Uint8Array {
  const bytes = new Uint8Array(8)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, Math.floor(value / TWO_32))
  view.setUint32(4, value % TWO_32)
  return bytes
}

/** The inverse of encodeUint64, or undefined for anything but 8 bytes holding a safe integer. */
export function decodeUint64 (bytes: Uint8Array): number | undefined {
  if (bytes.length !== 8) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8)
  const value = view.getUint32(0) * TWO_32 + view.getUint32(4)
  return Number.isSafeInteger(value) ? value : undefined
}
