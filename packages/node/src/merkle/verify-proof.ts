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
  // Steps 2–4, and step 5's first half: the walk ends at the top (sn = 0) or the path had the wrong length.
  return climb(leafIndex, treeSize - 1, leafHash, path, false)?.root
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
  const roots = climb(fn, sn, nodes[0] as Uint8Array, nodes.slice(1), true) // steps 5 and 6
  return roots !== undefined && equalHashes(roots.leftRoot, firstRoot) && equalHashes(roots.root, secondRoot) // step 7
}

/**
 * The climb both proofs make (RFC 9162 §2.1.3.2 step 4, §2.1.4.2 step 6): from node `fn` of a level
 * whose last node is `sn`, each hash of `path` is a left sibling (when fn is odd or the last node)
 * or a right one. `root` combines every hash; `leftRoot`, kept only when asked, combines the left
 * siblings alone (the consistency proof's first tree). Undefined when the path is longer than the
 * tree is high (4a, 6a) or ends below the top (sn ≠ 0: step 5 of inclusion, 7 of consistency).
 */
function climb (fn: number, sn: number, start: Uint8Array, path: readonly Uint8Array[], keepLeft: boolean): { root: Uint8Array, leftRoot: Uint8Array } | undefined {
  let root = start
  let leftRoot = start
  for (const sibling of path) {
    if (sn === 0) return undefined
    if (isOdd(fn) || fn === sn) {
      root = hashChildren(sibling, root)
      if (keepLeft) leftRoot = hashChildren(sibling, leftRoot)
      // Up the right edge of a ragged tree, where a node has no right sibling to combine with.
      while (!isOdd(fn) && fn !== 0) { fn = half(fn); sn = half(sn) }
    } else {
      root = hashChildren(root, sibling)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 ? { root, leftRoot } : undefined
}

function assertPath (path: unknown): asserts path is Uint8Array[] {
  if (!Array.isArray(path)) throw new IsnadError('PROOF_MALFORMED', 'proof path must be an array of hashes')
  path.forEach((hash, i) => { assertHash(hash, `proof path[${i}]`) })
}
