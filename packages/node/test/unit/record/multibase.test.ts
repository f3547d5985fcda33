import * as dagCbor from '@ipld/dag-cbor'
import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { base32 } from 'multiformats/bases/base32'
import { base64 } from 'multiformats/bases/base64'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import { cidOfBytes, cidString, decodeSignature, encodeSignature } from '../../../src/record/index.js'
import { decodeBase64, encodeBase32Multibase } from '../../../src/record/multibase.js'

/** What `run` returned, or that it threw: two codecs agree when these are equal. */
function outcome<T> (run: () => T): { value: T } | { threw: true } {
  try {
    return { value: run() }
  } catch {
    return { threw: true }
  }
}

const BASE64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

describe('multibase codecs on the verification path (same results as multiformats)', () => {
  it('encodeBase32Multibase equals base32.encode for any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
      expect(encodeBase32Multibase(bytes)).toBe(base32.encode(bytes))
    }), { numRuns: 2000 })
  })

  it('decodeBase64 equals base64.baseDecode, refusals included', () => {
    // Mostly the alphabet, with padding, a few characters outside it and non-ASCII ones mixed in.
    const char = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...BASE64_CHARS) },
      { weight: 1, arbitrary: fc.constantFrom('=', '-', '_', ' ', '\n', 'é', '€', '\u0100', '\u00c1') }
    )
    const text = fc.oneof(
      fc.array(char, { maxLength: 100 }).map((chars) => chars.join('')),
      fc.uint8Array({ maxLength: 70 }).map((bytes) => base64.baseEncode(bytes)),
      fc.uint8Array({ maxLength: 70 }).map((bytes) => base64.baseEncode(bytes) + '='.repeat(bytes.length % 3))
    )
    fc.assert(fc.property(text, (t) => {
      expect(outcome(() => decodeBase64(t)), JSON.stringify(t)).toEqual(outcome(() => base64.baseDecode(t)))
    }), { numRuns: 5000 })
  })

  it('round-trips signatures and refuses non-zero spare bits (record-v1 R9)', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (signature) => {
      expect(decodeSignature(encodeSignature(signature))).toEqual(signature)
    }), { numRuns: 500 })
    const last = encodeSignature(new Uint8Array(64))
    expect(() => decodeSignature(last.slice(0, -1) + 'B')).toThrow(expect.objectContaining({ code: 'SIGNATURE_MALFORMED' }))
  })

  it('cidOfBytes builds the CID multiformats builds, and cidString its canonical string', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
      const expected = CID.createV1(dagCbor.code, Digest.create(0x12, sha256(bytes)))
      const cid = cidOfBytes(bytes)
      expect(cid.equals(expected)).toBe(true)
      expect(cid.multihash.bytes).toEqual(expected.multihash.bytes)
      expect(cid.multihash.digest).toEqual(expected.multihash.digest)
      expect(cidString(cid)).toBe(expected.toString())
      expect(CID.parse(cidString(cid)).equals(expected)).toBe(true)
    }), { numRuns: 300 })
  })
})
