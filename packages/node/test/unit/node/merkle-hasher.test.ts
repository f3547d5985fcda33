import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashChildren, hashLeaf } from '../../../src/merkle/index.js'
import { nativeMerkleHasher } from '../../../src/node/journal/merkle-hasher.js'

/*
 * The node's hasher takes each digest from node:crypto as a latin1 string into Node's buffer pool:
 * every byte value must come back as it was, and each result must be a plain Uint8Array of its own.
 */
describe('nativeMerkleHasher', () => {
  it('gives the bytes of the @noble/hashes functions, leaf and node (property)', () => {
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 100 }), hash, hash, (data, left, right) => {
      const leaf = nativeMerkleHasher.leaf(data)
      const node = nativeMerkleHasher.children(left, right)
      expect(leaf).toEqual(hashLeaf(data))
      expect(node).toEqual(hashChildren(left, right))
      expect(leaf.constructor).toBe(Uint8Array)
      expect(leaf.length).toBe(32)
    }), { numRuns: 1000 })
  })

  it('results stay apart: writing to one changes no other', () => {
    const hashes = Array.from({ length: 300 }, (_, i) => nativeMerkleHasher.leaf(Uint8Array.of(i & 0xff, i >> 8)))
    const copies = hashes.map((h) => Uint8Array.from(h))
    ;(hashes[0] as Uint8Array).fill(0)
    expect(hashes.slice(1)).toEqual(copies.slice(1))
  })
})
