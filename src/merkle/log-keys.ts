import type { PerfectNode } from './tree-math.js'

/*
 * Key layout of a MerkleLog in its MerkleNodeStore (transparency-v1 §3; in the node, the `m`
 * sublevel of `.memory/index/journal`, rebuilt like every index from the ledgers). Keys are binary
 * strings, one byte per character (a store writes them as Latin-1; one that writes UTF-8 still
 * gets distinct keys, only longer):
 *
 *   size                     → tree size, 8 bytes big-endian
 *   c <n> <leaf index>       → the leaf's column: its leaf data (what was appended: a record's 36
 *                              CID bytes), then the hash of every perfect subtree that leaf
 *                              completes (the one of 2^level leaves ending at it, for level 1 …
 *                              the number of trailing one bits of the index), 32 bytes each, the
 *                              last at the end; written once, with the leaf. The leaf hash is
 *                              the hash of the data (one SHA-256 when a proof needs it), and the
 *                              log serves its leaves in order from the columns (leavesFrom), so
 *                              the node keeps no separate list of them. The index is big-endian
 *                              in n (1–7) bytes: keys sort in leaf order
 *   l <leaf hash>            → leaf index, big-endian in as few bytes as it takes (1–8): leaf
 *                              hash (32 bytes) → position, so a record is proven by its id, and
 *                              an append is idempotent by leaf data
 */

export const SIZE_KEY = 'size'

/** Where a perfect subtree's hash is stored: the column of its last leaf, `fromEnd` hashes before its end (level 0: the leaf data). */
export interface NodeLocation {
  key: string
  /** The column's leaf index. */
  leaf: number
  /** Level 0: the leaf (its data, hashed); level l ≥ 1: the hash ending (levels − l)·32 bytes before the column's end. */
  level: number
}

export function nodeLocation ({ level, index }: PerfectNode): NodeLocation {
  const leaf = (index + 1) * 2 ** level - 1
  return { key: columnKey(leaf), leaf, level }
}

/** The number of hashes after the leaf data in a leaf's column: the trailing one bits of its index. */
export function completedLevels (leafIndex: number): number {
  let levels = 0
  for (let at = leafIndex; at % 2 === 1; at = Math.floor(at / 2)) levels++
  return levels
}

export function columnKey (leafIndex: number): string {
  const digits = minimalBigEndian(leafIndex)
  return 'c' + String.fromCharCode(digits.length) + String.fromCharCode(...digits)
}

/** A name of the node, for the cache and for messages. */
export function nodeName ({ level, index }: PerfectNode): string {
  return `${level}/${index}`
}

/** `l` and the 32 bytes of a leaf hash, one character each. */
export function leafIndexKey (leafHash: Uint8Array): string {
  return 'l' + String.fromCharCode(...leafHash)
}

/** A leaf index as its big-endian bytes without leading zeros (0 is one zero byte). */
export function encodeLeafIndex (index: number): Uint8Array {
  return Uint8Array.from(minimalBigEndian(index))
}

/** The inverse of encodeLeafIndex (1–8 bytes holding a safe integer), else undefined. */
export function decodeLeafIndex (bytes: Uint8Array): number | undefined {
  if (bytes.length < 1 || bytes.length > 8) return undefined
  let value = 0
  for (const byte of bytes) value = value * 256 + byte
  return Number.isSafeInteger(value) ? value : undefined
}

function minimalBigEndian (value: number): number[] {
  const digits: number[] = []
  let rest = value
  do {
    digits.unshift(rest % 256)
    rest = Math.floor(rest / 256)
  } while (rest > 0)
  return digits
}

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
