import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashChildren, hashLeaf, hashToHex, merkleHasherOf } from '../../../src/merkle/index.js'
import { leafIndexKey } from '../../../src/merkle/log-keys.js'
import { referenceLeafHash as referenceLeaf } from './reference.js'

/*
 * Leaf index keys are built in a reused ASCII buffer and hash inputs in buffers a hasher rewrites on
 * every call (hash.ts, log-keys.ts): each result must be what a fresh computation gives, whatever
 * came before it, for any length of input.
 */

/** RFC 6962 §2.1 written out: SHA-256(0x01 ‖ l ‖ r), l and r at 1 and 33 (leaves: the naive oracle, reference.ts). */
function referenceChildren (left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(65)
  input[0] = 1
  input.set(left, 1)
  input.set(right, 33)
  return sha256(input)
}

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
/** A hasher over @noble/hashes through merkleHasherOf, as the node's is over node:crypto. */
const wrapped = merkleHasherOf((input) => sha256(input))

describe('hash inputs in reused buffers', () => {
  it('leaf hashes of any data, one after another, equal the reference (property)', () => {
    fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { minLength: 1, maxLength: 8 }), (leaves) => {
      for (const data of leaves) {
        expect(wrapped.leaf(data)).toEqual(referenceLeaf(data))
        expect(hashLeaf(data)).toEqual(referenceLeaf(data))
      }
    }), { numRuns: 500 })
  })

  it('record leaves (36 bytes) after data of other lengths, and the other way round', () => {
    const record = Uint8Array.from({ length: 36 }, (_, i) => i + 1)
    for (const other of [new Uint8Array(0), new Uint8Array(35).fill(7), new Uint8Array(37).fill(9), new Uint8Array(200).fill(3)]) {
      expect(wrapped.leaf(record)).toEqual(referenceLeaf(record))
      expect(wrapped.leaf(other)).toEqual(referenceLeaf(other))
      expect(wrapped.leaf(record)).toEqual(referenceLeaf(record))
    }
  })

  it('node hashes of two hashes, one after another, equal the reference (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(hash, hash), { minLength: 1, maxLength: 8 }), (pairs) => {
      for (const [left, right] of pairs) {
        expect(wrapped.children(left, right)).toEqual(referenceChildren(left, right))
        expect(hashChildren(left, right)).toEqual(referenceChildren(left, right))
      }
    }), { numRuns: 500 })
  })

  it('children that are not 32 bytes are laid out as ever, with nothing left of an earlier input', () => {
    const full = new Uint8Array(32).fill(0xff)
    const short = new Uint8Array(5).fill(0x11)
    wrapped.children(full, full)
    hashChildren(full, full)
    expect(wrapped.children(short, short)).toEqual(referenceChildren(short, short))
    expect(hashChildren(short, full)).toEqual(referenceChildren(short, full))
  })

  it('a result is never overwritten by the next hash', () => {
    const [a, b] = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)]
    const first = wrapped.children(a, b)
    const copy = Uint8Array.from(first)
    wrapped.children(b, a)
    wrapped.leaf(a)
    expect(first).toEqual(copy)
  })
})

describe('leafIndexKey', () => {
  it('is `l` and the first 8 bytes of the leaf hash, one character each (index layout 7; property)', () => {
    fc.assert(fc.property(fc.array(hash, { minLength: 1, maxLength: 4 }), (hashes) => {
      for (const leaf of hashes) {
        const key = leafIndexKey(leaf)
        expect(key).toHaveLength(9)
        expect(Buffer.from(key.slice(1), 'latin1').toString('hex')).toBe(hashToHex(leaf).slice(0, 16))
      }
    }), { numRuns: 1000 })
    expect(leafIndexKey(new Uint8Array(32).fill(0xab))).toBe(`l${'\xab'.repeat(8)}`)
  })

  it('keys of two leaves stay apart (each is its own string)', () => {
    const one = leafIndexKey(new Uint8Array(32).fill(0x01))
    const two = leafIndexKey(new Uint8Array(32).fill(0xfe))
    expect(one).toBe(`l${'\x01'.repeat(8)}`)
    expect(two).toBe(`l${'\xfe'.repeat(8)}`)
  })
})
