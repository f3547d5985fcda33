import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  computeRoot, hashLeaf, proveConsistency, proveInclusion, verifyConsistency, verifyInclusion,
  type ConsistencyProof, type InclusionProof
} from '../../../src/merkle/index.js'
import { hex, referencePath, referenceProof, referenceRoot } from './reference.js'

/*
 * fast-check over random trees: every generated proof equals the naive reference's and verifies,
 * and every single mutation of it — of the path, the index, the sizes, the roots, the leaf — fails.
 */

const MAX_LEAVES = 300

/** n distinct leaves; `salt` varies the data between samples. */
function leavesOf (n: number, salt: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => Uint8Array.of(salt & 0xff, i & 0xff, i >> 8, salt >> 8))
}

const tree = fc.record({ n: fc.integer({ min: 1, max: MAX_LEAVES }), salt: fc.nat(0xffff) })
const withIndex = tree.chain((t) => fc.record({ t: fc.constant(t), i: fc.nat(t.n - 1), pick: fc.nat(), bit: fc.nat(255) }))
const withSizes = tree.chain((t) => fc.record({ t: fc.constant(t), m: fc.nat(t.n), pick: fc.nat(), bit: fc.nat(255) }))

function flip (path: Uint8Array[], at: number, bit: number): Uint8Array[] {
  return path.map((hash, k) => {
    if (k !== at) return hash
    const copy = Uint8Array.from(hash)
    copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7))
    return copy
  })
}

/** Every single mutation of a path that changes it: a flipped bit, a hash dropped, added or repeated, neighbours swapped. */
function pathMutations (path: Uint8Array[], pick: number, bit: number, extra: Uint8Array): Array<[string, Uint8Array[]]> {
  const out: Array<[string, Uint8Array[]]> = [['extended', [...path, extra]], ['prefixed', [extra, ...path]]]
  if (path.length === 0) return out
  const at = pick % path.length
  out.push([`bit ${bit} of path[${at}]`, flip(path, at, bit)])
  out.push([`path[${at}] dropped`, path.filter((_, k) => k !== at)])
  out.push([`path[${at}] repeated`, [...path.slice(0, at + 1), ...path.slice(at)]])
  const next = (at + 1) % path.length
  if (hex(path[at] as Uint8Array) !== hex(path[next] as Uint8Array)) {
    const swapped = [...path]
    swapped[at] = path[next] as Uint8Array
    swapped[next] = path[at] as Uint8Array
    out.push([`path[${at}] ⇄ path[${next}]`, swapped])
  }
  return out
}

/** true, false, or the error code: a refusal either way when not true. */
function outcome (run: () => boolean): boolean | string {
  try {
    return run()
  } catch (err) {
    return (err as { code?: string }).code ?? String(err)
  }
}

describe('inclusion proofs (RFC 6962 §2.1.1, RFC 9162 §2.1.3.2)', () => {
  it('equal the reference PATH and verify; every single mutation fails', () => {
    fc.assert(fc.property(withIndex, ({ t, i, pick, bit }) => {
      const data = leavesOf(t.n, t.salt)
      const hashes = data.map(hashLeaf)
      const root = computeRoot(hashes)
      expect(hex(root)).toBe(hex(referenceRoot(data)))
      const proof = proveInclusion(hashes, i)
      expect(proof.path.map(hex)).toEqual(referencePath(i, data).map(hex))
      const leaf = hashes[i] as Uint8Array
      expect(verifyInclusion(leaf, proof, root)).toBe(true)

      const refuse = (what: string, p: InclusionProof, leafHash: Uint8Array, r: Uint8Array): void => {
        expect(outcome(() => verifyInclusion(leafHash, p, r)), what).not.toBe(true)
      }
      for (const [what, path] of pathMutations(proof.path, pick, bit, root)) refuse(what, { ...proof, path }, leaf, root)
      const other = (i + 1 + (pick % Math.max(1, t.n - 1))) % t.n
      if (other !== i) {
        refuse(`index ${other}`, { ...proof, leafIndex: other }, leaf, root)
        refuse(`leaf ${other}`, proof, hashes[other] as Uint8Array, root)
      }
      // A proof for this tree does not verify as one for a tree of another size, against that tree's root.
      const size = 1 + (pick % t.n)
      if (size !== t.n && i < size) refuse(`tree size ${size}`, { ...proof, treeSize: size }, leaf, computeRoot(hashes, size))
      refuse('root flipped', proof, leaf, flip([root], 0, bit)[0] as Uint8Array)
    }), { numRuns: 300 })
  })
})

describe('consistency proofs (RFC 6962 §2.1.2, RFC 9162 §2.1.4.2)', () => {
  it('equal the reference PROOF and verify; every single mutation fails', () => {
    fc.assert(fc.property(withSizes, ({ t, m, pick, bit }) => {
      const data = leavesOf(t.n, t.salt)
      const hashes = data.map(hashLeaf)
      const first = computeRoot(hashes, m)
      const second = computeRoot(hashes)
      const proof = proveConsistency(hashes, m)
      expect(proof.path.map(hex)).toEqual(referenceProof(m, data).map(hex))
      expect(verifyConsistency(proof, first, second)).toBe(true)

      const refuse = (what: string, p: ConsistencyProof, r1: Uint8Array, r2: Uint8Array): void => {
        expect(outcome(() => verifyConsistency(p, r1, r2)), what).not.toBe(true)
      }
      for (const [what, path] of pathMutations(proof.path, pick, bit, second)) refuse(what, { ...proof, path }, first, second)
      // Another pair of sizes, with their true roots: a non-empty path proves only the pair it was made for
      // (an empty one is right for 0 → any and n → n, whatever the log).
      const m2 = pick % (t.n + 1)
      if (proof.path.length > 0 && m2 !== m) refuse(`first ${m2}`, { ...proof, first: m2 }, computeRoot(hashes, m2), second)
      if (proof.path.length > 0 && m2 !== t.n && m2 >= m) refuse(`second ${m2}`, { ...proof, second: m2 }, first, computeRoot(hashes, m2))
      if (m !== t.n) refuse('swapped roots', proof, second, first)
      refuse('first root flipped', proof, flip([first], 0, bit)[0] as Uint8Array, second)
      // Every tree extends the empty one, whatever its root: from size 0 only the first root is bound.
      if (m > 0) refuse('second root flipped', proof, first, flip([second], 0, bit)[0] as Uint8Array)
    }), { numRuns: 300 })
  })
})
