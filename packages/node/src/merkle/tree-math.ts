import { IsnadError } from '../errors/index.js'
import { MAX_TREE_SIZE } from './constants.js'

/*
 * Tree arithmetic shared by the pure proofs and the persistent log. Sizes and indexes are safe
 * integers, so halving is Math.floor(x / 2) and parity x % 2: exact up to 2^53, where 32-bit bit
 * operators would wrap at 2^31.
 */

/**
 * A perfect subtree: the 2^level leaves from index·2^level (RFC 6962 §2.1's MTH(D[a:b]) with b − a a
 * power of two and a a multiple of it). Level 0 nodes are leaf hashes.
 */
export interface PerfectNode {
  level: number
  index: number
}

/** Consecutive leaves D[start : start + size] of the tree, size ≥ 1. */
export interface LeafRange {
  start: number
  size: number
}

/** Throws PROOF_MALFORMED unless `value` is a safe integer in [0, MAX_TREE_SIZE]. */
export function assertTreeSize (value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_TREE_SIZE) {
    throw new IsnadError('PROOF_MALFORMED', `${what} must be an integer in [0, 2^53 − 1], got ${String(value)}`)
  }
}

export function isOdd (n: number): boolean {
  return n % 2 === 1
}

export function half (n: number): number {
  return Math.floor(n / 2)
}

export function isPowerOfTwo (n: number): boolean {
  if (n < 1) return false
  while (n > 1) {
    if (isOdd(n)) return false
    n = half(n)
  }
  return true
}

/** RFC 6962 §2.1: for n > 1, "the largest power of two smaller than n" (k < n ≤ 2k). */
export function splitPoint (n: number): number {
  if (n < 2) throw new RangeError(`no split point for a tree of ${n} leaves`)
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/** log2 of a power of two. */
export function log2 (powerOfTwo: number): number {
  let level = 0
  for (let k = powerOfTwo; k > 1; k = half(k)) level++
  return level
}

/**
 * The perfect subtrees that make up D[start : start + size], left to right, for every range the
 * RFC 6962 recursions visit (their `start` is a multiple of the power of two ≥ size). MTH of the
 * range folds them from the right: MTH(D[a:b]) = HASH(0x01 ‖ MTH(D[a:a+k]) ‖ MTH(D[a+k:b])) with
 * D[a:a+k] perfect (RFC 6962 §2.1), so one perfect node per set bit of `size`, largest first.
 */
export function perfectNodesOf (range: LeafRange): PerfectNode[] {
  const nodes: PerfectNode[] = []
  let { start, size } = range
  while (size > 0) {
    const width = isPowerOfTwo(size) ? size : splitPoint(size)
    nodes.push({ level: log2(width), index: start / width })
    start += width
    size -= width
  }
  return nodes
}

/** Folds the hashes of perfectNodesOf(range) into MTH of the range (right to left, §2.1). */
export function foldRight (hashes: readonly Uint8Array[], combine: (left: Uint8Array, right: Uint8Array) => Uint8Array): Uint8Array {
  let acc = hashes[hashes.length - 1]
  if (acc === undefined) throw new RangeError('an empty range has no subtree hash')
  for (let i = hashes.length - 2; i >= 0; i--) acc = combine(hashes[i] as Uint8Array, acc)
  return acc
}
