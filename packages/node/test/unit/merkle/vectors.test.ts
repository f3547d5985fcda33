import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  computeRoot, hashLeaf, inclusionProofFromJson, consistencyProofFromJson, proveConsistency, proveInclusion,
  verifyConsistency, verifyInclusion
} from '../../../src/merkle/index.js'
import { hex, referencePath, referenceProof, referenceRoot, unhex } from './reference.js'
import {
  REFERENCE_CONSISTENCY, REFERENCE_INCLUSION, REFERENCE_LEAVES, REFERENCE_ROOTS, buildVectors,
  type ConsistencyVector, type InclusionVector, type MerkleVectors
} from './vector-data.js'

/** protocols/vectors/merkle/rfc6962.json (transparency-v1 §8), run against src/merkle and the naive reference. */

const FILE = new URL('../../../protocols/vectors/merkle/rfc6962.json', import.meta.url)
if (process.env.ISNAD_WRITE_VECTORS === '1') writeFileSync(FILE, JSON.stringify(buildVectors(), null, 2) + '\n')
const vectors = JSON.parse(readFileSync(FILE, 'utf8')) as MerkleVectors
const data = vectors.leaves.map(unhex)
const leafHashes = data.map(hashLeaf)

function inclusionOutcome (v: InclusionVector): string {
  try {
    return String(verifyInclusion(unhex(v.leaf_hash), { leafIndex: v.leaf_index, treeSize: v.tree_size, path: v.path.map(unhex) }, unhex(v.root)))
  } catch (err) {
    return isIsnadError(err) ? err.code : `non-IsnadError: ${String(err)}`
  }
}

function consistencyOutcome (v: ConsistencyVector): string {
  try {
    return String(verifyConsistency({ first: v.first, second: v.second, path: v.path.map(unhex) }, unhex(v.first_root), unhex(v.second_root)))
  } catch (err) {
    return isIsnadError(err) ? err.code : `non-IsnadError: ${String(err)}`
  }
}

describe('RFC 6962 reference data', () => {
  it('the naive reference reproduces the published roots and proofs', () => {
    const leaves = REFERENCE_LEAVES.map(unhex)
    REFERENCE_ROOTS.forEach((root, n) => { expect(hex(referenceRoot(leaves.slice(0, n))), `root ${n}`).toBe(root) })
    for (const p of REFERENCE_INCLUSION) {
      expect(referencePath(p.leaf_index, leaves.slice(0, p.tree_size)).map(hex), `PATH(${p.leaf_index}, D[${p.tree_size}])`).toEqual(p.path)
    }
    for (const p of REFERENCE_CONSISTENCY) {
      expect(referenceProof(p.first, leaves.slice(0, p.second)).map(hex), `PROOF(${p.first}, D[${p.second}])`).toEqual(p.path)
    }
  })

  it('the committed vector file is what the reference builds (ISNAD_WRITE_VECTORS=1 rewrites it)', () => {
    expect(vectors).toEqual(buildVectors())
    expect(vectors.roots).toEqual(REFERENCE_ROOTS)
  })
})

describe('src/merkle on the vectors', () => {
  it('leaf hashes and the root of every size', () => {
    expect(leafHashes.map(hex)).toEqual(vectors.leaf_hashes)
    vectors.roots.forEach((root, n) => { expect(hex(computeRoot(leafHashes, n)), `size ${n}`).toBe(root) })
  })

  it('the published proofs, read as JSON, verify', () => {
    for (const json of vectors.reference.inclusion) {
      const proof = inclusionProofFromJson(json)
      expect(verifyInclusion(leafHashes[proof.leafIndex] as Uint8Array, proof, unhex(vectors.roots[proof.treeSize] as string)), JSON.stringify(json)).toBe(true)
    }
    for (const json of vectors.reference.consistency) {
      const proof = consistencyProofFromJson(json)
      expect(verifyConsistency(proof, unhex(vectors.roots[proof.first] as string), unhex(vectors.roots[proof.second] as string)), JSON.stringify(json)).toBe(true)
    }
  })

  it('every inclusion proof: generated equal to the vector, and verifies', () => {
    for (const v of vectors.inclusion) {
      const id = `inclusion ${v.leaf_index}@${v.tree_size}`
      expect(proveInclusion(leafHashes, v.leaf_index, v.tree_size).path.map(hex), id).toEqual(v.path)
      expect(inclusionOutcome(v), id).toBe('true')
    }
  })

  it('every consistency proof: generated equal to the vector, and verifies', () => {
    for (const v of vectors.consistency) {
      const id = `consistency ${v.first}→${v.second}`
      expect(proveConsistency(leafHashes, v.first, v.second).path.map(hex), id).toEqual(v.path)
      expect(consistencyOutcome(v), id).toBe('true')
    }
  })

  it(`refuses every corrupted inclusion proof with its expected outcome`, () => {
    expect(vectors.invalid_inclusion.length).toBeGreaterThan(100)
    for (const v of vectors.invalid_inclusion) expect(inclusionOutcome(v), `invalid inclusion ${v.id}`).toBe(v.expect)
  })

  it('refuses every corrupted consistency proof with its expected outcome', () => {
    expect(vectors.invalid_consistency.length).toBeGreaterThan(100)
    for (const v of vectors.invalid_consistency) expect(consistencyOutcome(v), `invalid consistency ${v.id}`).toBe(v.expect)
  })
})
