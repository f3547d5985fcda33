import { IsnadError } from '../errors/index.js'
import { EMPTY_ROOT, assertHash, equalHashes, hashChildren } from './hash.js'
import { assertTreeSize, half, isOdd, isPowerOfTwo } from './tree-math.js'
import type { ConsistencyProof, InclusionProof } from './types.js'

/*
 * Proof verification as RFC 9162 specifies it (§2.1.3.2 inclusion, §2.1.4.2 consistency; the same
 * trees and proofs as RFC 6962 §2.1.1–2.1.2, whose text gives no verification algorithm). Like a
 * signature verifier: a well-formed proof that does not check out returns false; only malformed
 * input throws PROOF_MALFORMED — sizes that are not safe integers, a leaf index ≥ tree size, a first
 * size above the second, a hash that is not 32 bytes. A path of the wrong length is well formed
 * and wrong: false.
 */

/**
 * RFC 9162 §2.1.3.2 steps 1–4: the root that `proof` and `leafHash` lead to, or undefined when the
 * path has the wrong length for the position (step 4a, and sn ≠ 0 at the end, step 5).
 */
export function rootFromInclusionProof (leafHash: Uint8Array, proof: InclusionProof): Uint8Array | undefined {
  const { leafIndex, treeSize, path } = proof
  assertTreeSize(treeSize, 'tree size')
  assertTreeSize(leafIndex, 'leaf index')
  if (leafIndex >= treeSize) { // step 1
    throw new IsnadError('PROOF_MALFORMED', `leaf index ${leafIndex} is not below tree size ${treeSize}`)
  }
  assertHash(leafHash, 'leaf hash')
  assertPath(path)
  let fn = leafIndex // step 2
  let sn = treeSize - 1
  let r = leafHash // step 3
  for (const p of path) { // step 4
    if (sn === 0) return undefined // 4a: the path is longer than the tree is high
    if (isOdd(fn) || fn === sn) { // 4b: p is a left sibling
      r = hashChildren(p, r)
      // Up the right edge of a ragged tree, where a node has no right sibling to combine with.
      while (!isOdd(fn) && fn !== 0) { fn = half(fn); sn = half(sn) }
    } else {
      r = hashChildren(r, p)
    }
    fn = half(fn) // 4c
    sn = half(sn)
  }
  return sn === 0 ? r : undefined // step 5, first half: the path was long enough
}

/** RFC 9162 §2.1.3.2: true when `proof` shows `leafHash` at `proof.leafIndex` in the tree with `root`. */
export function verifyInclusion (leafHash: Uint8Array, proof: InclusionProof, root: Uint8Array): boolean {
  assertHash(root, 'root')
  const computed = rootFromInclusionProof(leafHash, proof)
  return computed !== undefined && equalHashes(computed, root)
}

/**
 * RFC 9162 §2.1.4.2: true when `proof` shows that the tree of `proof.first` leaves with `firstRoot`
 * is a prefix of the tree of `proof.second` leaves with `secondRoot`. Equal sizes need an empty
 * path and equal roots; first = 0 needs an empty path and the empty tree's root (transparency-v1 R7).
 */
export function verifyConsistency (proof: ConsistencyProof, firstRoot: Uint8Array, secondRoot: Uint8Array): boolean {
  const { first, second, path } = proof
  assertTreeSize(first, 'first tree size')
  assertTreeSize(second, 'second tree size')
  if (first > second) {
    throw new IsnadError('PROOF_MALFORMED', `first tree size ${first} is larger than second tree size ${second}`)
  }
  assertHash(firstRoot, 'first root')
  assertHash(secondRoot, 'second root')
  assertPath(path)
  if (first === 0) return path.length === 0 && equalHashes(firstRoot, EMPTY_ROOT)
  if (first === second) return path.length === 0 && equalHashes(firstRoot, secondRoot)
  if (path.length === 0) return false // step 1
  // Step 2: when the old tree is a perfect subtree of the new one, its root starts the path.
  const nodes = isPowerOfTwo(first) ? [firstRoot, ...path] : path
  let fn = first - 1 // step 3
  let sn = second - 1
  while (isOdd(fn)) { fn = half(fn); sn = half(sn) } // step 4
  let fr = nodes[0] as Uint8Array // step 5
  let sr = fr
  for (let i = 1; i < nodes.length; i++) { // step 6
    const c = nodes[i] as Uint8Array
    if (sn === 0) return false // 6a
    if (isOdd(fn) || fn === sn) { // 6b
      fr = hashChildren(c, fr)
      sr = hashChildren(c, sr)
      while (!isOdd(fn) && fn !== 0) { fn = half(fn); sn = half(sn) }
    } else {
      sr = hashChildren(sr, c)
    }
    fn = half(fn) // 6c
    sn = half(sn)
  }
  return sn === 0 && equalHashes(fr, firstRoot) && equalHashes(sr, secondRoot) // step 7
}

function assertPath (path: unknown): asserts path is Uint8Array[] {
  if (!Array.isArray(path)) throw new IsnadError('PROOF_MALFORMED', 'proof path must be an array of hashes')
  path.forEach((hash, i) => { assertHash(hash, `proof path[${i}]`) })
}
