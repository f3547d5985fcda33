import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nobleVerifier } from '../../../src/identity/index.js'
import { NODE_RECORD_FAST_PATHS, nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  PORTABLE_FAST_PATHS, encodeCanonical, encodeSignedRecord, signerOf, signRecord, verifiedIdOf, verifyRecordBytes, type RecordVerifier
} from '../../../src/record/index.js'
import { prepareRecords } from '../../../src/record-index/prepare.js'
import { signWithOpenssl } from '../../../src/fast-crypto/sign-native.js'
import { IsnadError } from '../../../src/errors/index.js'
import { anyRecord, secretKeyOf } from '../record/arbitraries.js'
import { fromHex, readVectorFile, toHex, type Ed25519VectorFile } from '../identity/vectors.js'
import { NOW, VALID } from '../record/fixtures.js'

const hex = (bytes: Uint8Array | undefined): string | undefined => bytes === undefined ? undefined : Buffer.from(bytes).toString('hex')

// src/record/fast-paths.ts: the node's fast paths (src/native) give what the portable ones give.
describe('NODE_RECORD_FAST_PATHS agree with PORTABLE_FAST_PATHS', () => {
  it('sha256, sameBytes and publicKeyOf on every valid vector', () => {
    for (const vector of VALID.vectors) {
      const bytes = encodeCanonical(vector.signed.record)
      expect(hex(NODE_RECORD_FAST_PATHS.sha256(bytes)), vector.id).toBe(hex(PORTABLE_FAST_PATHS.sha256(bytes)))
      const did = signerOf(vector.signed.record)
      expect(hex(NODE_RECORD_FAST_PATHS.publicKeyOf(did)), vector.id).toBe(hex(PORTABLE_FAST_PATHS.publicKeyOf(did)))
      const copy = bytes.slice()
      expect(NODE_RECORD_FAST_PATHS.sameBytes(bytes, copy), vector.id).toBe(true)
      copy[copy.length - 1] = (copy[copy.length - 1] as number) ^ 1
      expect(NODE_RECORD_FAST_PATHS.sameBytes(bytes, copy), vector.id).toBe(PORTABLE_FAST_PATHS.sameBytes(bytes, copy))
    }
  })

  it('the scratch encoder writes the canonical signed bytes; the portable path declines', () => {
    for (const vector of VALID.vectors) {
      const encoded = NODE_RECORD_FAST_PATHS.encodeSigned(vector.signed.record, vector.signed.signature)
      expect(hex(encoded?.view), vector.id).toBe(hex(encodeSignedRecord(vector.signed)))
      expect(PORTABLE_FAST_PATHS.encodeSigned(vector.signed.record, vector.signed.signature), vector.id).toBeUndefined()
    }
  })

  it('sign reproduces RFC 8032 §7.1 byte for byte, through libsodium and OpenSSL alike', () => {
    const { vectors } = readVectorFile<Ed25519VectorFile>('ed25519/rfc8032.json')
    expect(vectors.length).toBeGreaterThanOrEqual(5)
    for (const vector of vectors) {
      const seed = fromHex(vector.secret_key as string)
      const message = fromHex(vector.message)
      expect(toHex(NODE_RECORD_FAST_PATHS.sign(message, seed)), vector.id).toBe(vector.signature)
      expect(toHex(signWithOpenssl(message, seed)), vector.id).toBe(vector.signature)
      expect(toHex(PORTABLE_FAST_PATHS.sign(message, seed)), vector.id).toBe(vector.signature)
      expect(toHex(seed), 'the caller\'s seed is left as it was').toBe(vector.secret_key)
    }
  })

  it('sign gives the portable signature for any seed and message, and its error for a seed of the wrong length', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (seed, message) => {
      expect(toHex(NODE_RECORD_FAST_PATHS.sign(message, seed))).toBe(toHex(PORTABLE_FAST_PATHS.sign(message, seed)))
    }), { numRuns: 60 })
    for (const length of [0, 31, 33, 64]) {
      const seed = new Uint8Array(length).fill(1)
      const codes = [NODE_RECORD_FAST_PATHS, PORTABLE_FAST_PATHS].map((paths) => {
        try { paths.sign(new Uint8Array(8), seed); return 'signed' } catch (err) { return err instanceof IsnadError ? err.code : String(err) }
      })
      expect(codes, `seed of ${length} bytes`).toEqual(['KEY_INVALID', 'KEY_INVALID'])
    }
  })

  it('verification gives the same id and bytes with either verifier, on random records', () => {
    fc.assert(fc.property(anyRecord, (record) => {
      const { signed } = signRecord(record, secretKeyOf(record))
      const bytes = encodeSignedRecord(signed)
      const results = ([nodeCryptoVerifier, nobleVerifier] as RecordVerifier[]).map((verifier) => verifyRecordBytes(bytes, { verifier, now: Date.parse('2100-01-01T00:00:00Z') }))
      expect(results[0]?.id).toBe(results[1]?.id)
      expect(hex(results[0]?.bytes)).toBe(hex(results[1]?.bytes))
    }), { numRuns: 40 })
  })
})

describe('"verified" rides on the bytes (record/verified-bytes.ts), not in a global table', () => {
  const vector = VALID.vectors[0] as (typeof VALID.vectors)[number]

  it('marks the bytes verification built, and no copy of them', () => {
    const verified = verifyRecordBytes(encodeSignedRecord(vector.signed), { verifier: nodeCryptoVerifier, now: NOW })
    expect(verifiedIdOf(verified.bytes)).toBe(verified.id)
    expect(verifiedIdOf(verified.bytes.slice())).toBeUndefined()
    expect(verifiedIdOf(encodeSignedRecord(vector.signed))).toBeUndefined()
    // The mark is not enumerable: the bytes compare, copy and serialise as plain bytes.
    expect(Object.keys(verified.bytes).length).toBe(verified.bytes.length)
  })

  it('lets a store take marked bytes for their id without hashing, and refuses them for another id', () => {
    const verified = verifyRecordBytes(encodeSignedRecord(vector.signed), { verifier: nodeCryptoVerifier, now: NOW })
    const [prepared] = prepareRecords([{ id: verified.id, signed: verified.signed, bytes: verified.bytes }])
    expect(prepared?.id).toBe(verified.id)
    expect(prepared?.bytes).not.toBe(verified.bytes) // copied: no caller can change what a store holds
    const other = VALID.vectors[1] as (typeof VALID.vectors)[number]
    expect(() => prepareRecords([{ id: other.cid, signed: verified.signed, bytes: verified.bytes }])).toThrow(expect.objectContaining({ code: 'CID_MISMATCH' }))
  })
})
