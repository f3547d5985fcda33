import fc from 'fast-check'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import { codeOf } from '../../fixtures/error-code.js'
import {
  EMPTY_ROOT, MAX_PROOF_HASHES, consistencyProofFromJson, consistencyProofToJson, hashLeaf, inclusionProofFromJson,
  inclusionProofToJson, leafDataOfCid, verifyConsistency, verifyInclusion
} from '../../../src/merkle/index.js'

/** Proof JSON (transparency-v1 §4) and the malformed inputs that throw rather than return false. */

const H = 'ab'.repeat(32)
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })

describe('proof JSON', () => {
  it('round-trips every proof', () => {
    const sizes = fc.tuple(fc.nat(Number.MAX_SAFE_INTEGER - 1), fc.nat(Number.MAX_SAFE_INTEGER)).map(([a, b]) => [Math.min(a, b), Math.max(a, b) + (a === b ? 1 : 0)] as const)
    fc.assert(fc.property(sizes, fc.array(hash, { maxLength: MAX_PROOF_HASHES }), ([low, high], path) => {
      const inclusion = { leafIndex: low, treeSize: high, path }
      expect(inclusionProofFromJson(JSON.parse(JSON.stringify(inclusionProofToJson(inclusion))))).toEqual(inclusion)
      const consistency = { first: low, second: high, path }
      expect(consistencyProofFromJson(JSON.parse(JSON.stringify(consistencyProofToJson(consistency))))).toEqual(consistency)
    }), { numRuns: 200 })
  })

  it('refuses malformed JSON with PROOF_MALFORMED', () => {
    const inclusion: Array<[string, unknown]> = [
      ['index = size', { leaf_index: 3, tree_size: 3, path: [] }],
      ['negative', { leaf_index: -1, tree_size: 3, path: [] }],
      ['fractional', { leaf_index: 0.5, tree_size: 3, path: [] }],
      ['beyond 2^53', { leaf_index: 0, tree_size: 2 ** 53, path: [] }],
      ['string size', { leaf_index: 0, tree_size: '3', path: [] }],
      ['upper-case hex', { leaf_index: 0, tree_size: 3, path: [H.toUpperCase()] }],
      ['31-byte hash', { leaf_index: 0, tree_size: 3, path: [H.slice(2)] }],
      ['too many hashes', { leaf_index: 0, tree_size: 3, path: Array.from({ length: MAX_PROOF_HASHES + 1 }, () => H) }],
      ['unknown field', { leaf_index: 0, tree_size: 3, path: [], root: H }],
      ['camelCase', { leafIndex: 0, treeSize: 3, path: [] }],
      ['not an object', [0, 3, []]]
    ]
    for (const [what, input] of inclusion) expect(codeOf(() => inclusionProofFromJson(input)), what).toBe('PROOF_MALFORMED')
    expect(codeOf(() => consistencyProofFromJson({ first: 4, second: 3, path: [] }))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => consistencyProofFromJson({ first: 1, second: 3 }))).toBe('PROOF_MALFORMED')
  })
})

describe('malformed input to the verifiers throws; a wrong proof is false', () => {
  const leaf = hashLeaf(new Uint8Array(0))
  const root = Uint8Array.from(EMPTY_ROOT)

  it('inclusion', () => {
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 1, treeSize: 1, path: [] }, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 0, treeSize: 0, path: [] }, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 0, treeSize: -2, path: [] }, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 0, treeSize: 2.5, path: [] }, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf.subarray(1), { leafIndex: 0, treeSize: 1, path: [] }, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 0, treeSize: 1, path: [] }, new Uint8Array(33)))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyInclusion(leaf, { leafIndex: 0, treeSize: 2, path: [new Uint8Array(0)] }, root))).toBe('PROOF_MALFORMED')
    expect(verifyInclusion(leaf, { leafIndex: 0, treeSize: 1, path: [] }, leaf)).toBe(true)
    expect(verifyInclusion(leaf, { leafIndex: 0, treeSize: 1, path: [root] }, leaf)).toBe(false)
    expect(verifyInclusion(leaf, { leafIndex: 0, treeSize: 1, path: [] }, root)).toBe(false)
  })

  it('consistency, with the rules for sizes 0 and equal sizes (R7)', () => {
    expect(codeOf(() => verifyConsistency({ first: 2, second: 1, path: [] }, root, root))).toBe('PROOF_MALFORMED')
    expect(codeOf(() => verifyConsistency({ first: 1, second: 2, path: [leaf] }, root, new Uint8Array(5)))).toBe('PROOF_MALFORMED')
    expect(verifyConsistency({ first: 0, second: 0, path: [] }, root, root)).toBe(true)
    expect(verifyConsistency({ first: 0, second: 5, path: [] }, root, leaf)).toBe(true)
    expect(verifyConsistency({ first: 0, second: 5, path: [] }, leaf, leaf)).toBe(false) // size 0 has one root
    expect(verifyConsistency({ first: 0, second: 5, path: [leaf] }, root, leaf)).toBe(false)
    expect(verifyConsistency({ first: 3, second: 3, path: [] }, leaf, leaf)).toBe(true)
    expect(verifyConsistency({ first: 3, second: 3, path: [] }, leaf, root)).toBe(false)
    expect(verifyConsistency({ first: 3, second: 3, path: [leaf] }, leaf, leaf)).toBe(false)
    expect(verifyConsistency({ first: 1, second: 2, path: [] }, leaf, root)).toBe(false)
  })
})

describe('leaf data of a record (R1)', () => {
  it('is the 36 bytes of its CID, and only a record id is accepted', () => {
    const id = 'bafyreigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
    const data = leafDataOfCid(id)
    expect(data.length).toBe(36)
    expect(Buffer.from(data.subarray(0, 4)).toString('hex')).toBe('01711220')
    expect(codeOf(() => leafDataOfCid('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG'))).toBe('CID_INVALID')
  })

  it('equals the bytes multiformats parses, for the string and for the CID', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
      const cid = CID.createV1(0x71, createDigest(0x12, digest))
      expect(leafDataOfCid(cid.toString())).toEqual(Uint8Array.from(cid.bytes))
      expect(leafDataOfCid(cid)).toEqual(Uint8Array.from(cid.bytes))
    }))
  })
})
