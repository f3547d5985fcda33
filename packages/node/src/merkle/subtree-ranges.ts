import { IsnadError } from '../errors/index.js'
import { assertTreeSize, splitPoint, type LeafRange } from './tree-math.js'

/*
 * Which subtrees a proof is made of, as leaf ranges, in proof order: the recursions of RFC 6962
 * §2.1.1 (PATH) and §2.1.2 (PROOF / SUBPROOF) with D[a:b] written as { start: a, size: b − a }.
 * Pure arithmetic, no hashes: the in-memory tree (tree.ts) and the persistent log (log.ts) both
 * hash these ranges, each from what it holds, so both give the same proofs.
 */

/** RFC 6962 §2.1.1: PATH(m, D[n]), the ranges whose hashes prove leaf m in a tree of n leaves. */
export function inclusionRanges (leafIndex: number, treeSize: number): LeafRange[] {
  assertTreeSize(treeSize, 'tree size')
  assertTreeSize(leafIndex, 'leaf index')
  if (leafIndex >= treeSize) {
    throw new IsnadError('PROOF_MALFORMED', `leaf index ${leafIndex} is not below tree size ${treeSize}`)
  }
  const ranges: LeafRange[] = []
  path(leafIndex, 0, treeSize, ranges)
  return ranges
}

/**
 * PATH(m, D[start:start+n]): for n = 1 the path is empty; otherwise, with k the split point,
 * PATH(m, D[0:k]) : MTH(D[k:n]) when m < k, else PATH(m − k, D[k:n]) : MTH(D[0:k]).
 * The deeper part comes first (the path runs from the leaf up), so the sibling is pushed after.
 */
function path (m: number, start: number, n: number, out: LeafRange[]): void {
  if (n === 1) return
  const k = splitPoint(n)
  if (m < k) {
    path(m, start, k, out)
    out.push({ start: start + k, size: n - k })
  } else {
    path(m - k, start + k, n - k, out)
    out.push({ start, size: k })
  }
}

/**
 * RFC 6962 §2.1.2: PROOF(m, D[n]) = SUBPROOF(m, D[n], true), the ranges proving that the tree of
 * `first` leaves is a prefix of the tree of `second` leaves. Empty when first = second (nothing to
 * prove) and when first = 0 (every tree extends the empty one; RFC 9162 §2.1.4 defines proofs for
 * 0 < m < n only).
 */
export function consistencyRanges (first: number, second: number): LeafRange[] {
  assertTreeSize(first, 'first tree size')
  assertTreeSize(second, 'second tree size')
  if (first > second) {
    throw new IsnadError('PROOF_MALFORMED', `first tree size ${first} is larger than second tree size ${second}`)
  }
  const ranges: LeafRange[] = []
  if (first > 0 && first < second) subproof(first, 0, second, true, ranges)
  return ranges
}

/**
 * SUBPROOF(m, D[start:start+n], b): when m = n, empty if b (the old root is known to the verifier)
 * else MTH(D[0:m]); when m < n, with k the split point, SUBPROOF(m, D[0:k], b) : MTH(D[k:n]) if
 * m ≤ k, else SUBPROOF(m − k, D[k:n], false) : MTH(D[0:k]).
 */
function subproof (m: number, start: number, n: number, b: boolean, out: LeafRange[]): void {
  if (m === n) {
    if (!b) out.push({ start, size: m })
    return
  }
  const k = splitPoint(n)
  if (m <= k) {
    subproof(m, start, k, b, out)
    out.push({ start: start + k, size: n - k })
  } else {
    subproof(m - k, start + k, n - k, false, out)
    out.push({ start, size: k })
  }
}
