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
 *   l <leaf hash, first 8 bytes>
 *                            → the indexes of the leaves whose hash starts so, each as one length
 *                              byte and its big-endian bytes (1–8): almost always one. A lookup
 *                              reads the candidates' columns and keeps the one whose data hashes
 *                              to the whole leaf hash, so the position found is exact. 8 bytes
 *                              keep keys apart in practice (two leaves share one by chance after
 *                              ~2^32 of them; a collision made on purpose only costs a longer
 *                              list, and k leaves under one key ~2^(64(k−1)/k) hashes). Leaf data →
 *                              position: a record is proven by its id, and an append is
 *                              idempotent by leaf data
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
  return 'c' + String.fromCharCode(digits.length) + binaryString(digits)
}

/** A name of the node, for the cache and for messages. */
export function nodeName ({ level, index }: PerfectNode): string {
  return `${level}/${index}`
}

/** @default 8 — the bytes of a leaf hash its index key keeps. */
export const LEAF_KEY_BYTES = 8

/** `l` and the first LEAF_KEY_BYTES of a leaf hash, one character each. */
export function leafIndexKey (leafHash: Uint8Array): string {
  return 'l' + binaryString(leafHash.subarray(0, LEAF_KEY_BYTES))
}

/** A leaf hash as a string of its 32 bytes: its identity in memory (maps of an append, a fresh log). */
export function leafHashKey (leafHash: Uint8Array): string {
  return binaryString(leafHash)
}

/**
 * Bytes as a string of one character each. Through `apply`, which reads an array-like by index:
 * spread would walk the bytes with an iterator (≈6× the time, and garbage per byte), and an append
 * makes three such keys per leaf.
 */
function binaryString (bytes: Uint8Array | readonly number[]): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[])
}

/** Leaf indexes as the value of their index key: each one length byte, then its big-endian bytes. */
export function encodeLeafIndexes (indexes: readonly number[]): Uint8Array {
  const out: number[] = []
  for (const index of indexes) {
    const digits = minimalBigEndian(index)
    out.push(digits.length, ...digits)
  }
  return Uint8Array.from(out)
}

/** The inverse of encodeLeafIndexes, or undefined for bytes that are not such a list (or an empty one). */
export function decodeLeafIndexes (bytes: Uint8Array): number[] | undefined {
  const out: number[] = []
  let at = 0
  while (at < bytes.length) {
    const length = bytes[at] as number
    if (length < 1 || length > 8 || at + 1 + length > bytes.length) return undefined
    let value = 0
    for (let i = at + 1; i <= at + length; i++) value = value * 256 + (bytes[i] as number)
    if (!Number.isSafeInteger(value)) return undefined
    out.push(value)
    at += 1 + length
  }
  return out.length === 0 ? undefined : out
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
