import { IsnadError } from '../errors/index.js'
import { EMPTY_ROOT, assertHash, hashChildren } from './hash.js'
import { consistencyRanges, inclusionRanges } from './subtree-ranges.js'
import { assertTreeSize, splitPoint, type LeafRange } from './tree-math.js'
import type { ConsistencyProof, InclusionProof } from './types.js'

/*
 * The pure tree of RFC 6962 §2.1 over leaf hashes held in memory (hashLeaf of each entry, in log
 * order): roots and proofs for any size up to leafHashes.length. Every call hashes what it needs
 * from the leaves, O(n) per call: for vectors, tests and small logs. A log of any size that must
 * answer in O(log n) is MerkleLog (log.ts), which gives the same results.
 */

/** MTH(D[0:size]) (RFC 6962 §2.1); size 0 gives EMPTY_ROOT, SHA-256 of the empty string. */
export function computeRoot (leafHashes: readonly Uint8Array[], size: number = leafHashes.length): Uint8Array {
  checkSize(leafHashes, size, 'tree size')
  if (size === 0) return Uint8Array.from(EMPTY_ROOT)
  return rangeHash(leafHashes, { start: 0, size })
}

/** PATH(m, D[n]) (RFC 6962 §2.1.1) with n = treeSize ≤ leafHashes.length. */
export function proveInclusion (leafHashes: readonly Uint8Array[], leafIndex: number, treeSize: number = leafHashes.length): InclusionProof {
  checkSize(leafHashes, treeSize, 'tree size')
  const path = inclusionRanges(leafIndex, treeSize).map((range) => rangeHash(leafHashes, range))
  return { leafIndex, treeSize, path }
}

/** PROOF(m, D[n]) (RFC 6962 §2.1.2) with m = first ≤ n = second ≤ leafHashes.length. */
export function proveConsistency (leafHashes: readonly Uint8Array[], first: number, second: number = leafHashes.length): ConsistencyProof {
  checkSize(leafHashes, second, 'second tree size')
  const path = consistencyRanges(first, second).map((range) => rangeHash(leafHashes, range))
  return { first, second, path }
}

function checkSize (leafHashes: readonly Uint8Array[], size: number, what: string): void {
  assertTreeSize(size, what)
  if (size > leafHashes.length) {
    throw new IsnadError('PROOF_MALFORMED', `${what} ${size} is larger than the ${leafHashes.length} leaves given`)
  }
}

/** MTH(D[start:start+size]) by the recursion of RFC 6962 §2.1: split at the largest power of two below. */
function rangeHash (leafHashes: readonly Uint8Array[], { start, size }: LeafRange): Uint8Array {
  if (size === 1) {
    const leaf = leafHashes[start]
    assertHash(leaf, `leaf hash ${start}`)
    return Uint8Array.from(leaf) // a copy: proofs and roots never alias the caller's array
  }
  const k = splitPoint(size)
  return hashChildren(rangeHash(leafHashes, { start, size: k }), rangeHash(leafHashes, { start: start + k, size: size - k }))
}
