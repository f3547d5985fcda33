import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeCryptoVerifier } from '../../src/fast-crypto/index.js'
import {
  decodeSignedRecord, encodeSignedRecord, parseSignedRecord, verifyRecord, verifyRecordBytes, verifyRecordBytesAsync
} from '../../src/record/index.js'
import { MAX_RECORD_BYTES, type SignedRecord } from '../../src/schema/index.js'
import { NOW, VALID } from '../unit/record/fixtures.js'
import { HOSTILE_CBOR, fuzzParams, mutateAt, mutation, refuses, refusesAsync, sameBytes, stringPaths, textMutation } from './fuzz.js'

/** record-v1 §5: the decoders and the verification pipeline under random and mutated input. */
const options = { verifier: nodeCryptoVerifier, now: NOW }
const vectors = VALID.vectors.map((v) => ({ id: v.id, signed: v.signed, bytes: encodeSignedRecord(v.signed) }))
const vector = fc.constantFrom(...vectors)

describe('fuzz: records from bytes (record-v1 §5.2)', () => {
  it('random bytes are refused with an IsnadError, never accepted', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
      expect(refuses(() => verifyRecordBytes(bytes, options))).toBe(true)
    }), fuzzParams(500))
  })

  it('a mutated valid record is refused unless the mutation left it byte for byte the same', () => {
    fc.assert(fc.property(vector, fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ bytes }, mutations) => {
      const mutated = mutations.reduce((b, m) => m(b), bytes)
      if (sameBytes(mutated, bytes)) return
      expect(refuses(() => verifyRecordBytes(mutated, options))).toBe(true)
    }), fuzzParams(300))
  })

  it('the async pipeline agrees with the sync one on mutated records', async () => {
    await fc.assert(fc.asyncProperty(vector, mutation, async ({ bytes }, mutate) => {
      const mutated = mutate(bytes)
      if (sameBytes(mutated, bytes)) return
      expect(await refusesAsync(async () => await verifyRecordBytesAsync(mutated, options))).toBe(true)
    }), fuzzParams(300))
  })

  it('hostile CBOR (huge length claims, nesting bombs, non-DAG values) is refused without a crash', () => {
    for (const { name, bytes } of HOSTILE_CBOR) {
      expect(refuses(() => decodeSignedRecord(bytes)), name).toBe(true)
      expect(refuses(() => verifyRecordBytes(bytes, options)), name).toBe(true)
    }
  })

  it('an oversized input is refused by its size, before it is decoded', () => {
    const huge = new Uint8Array(MAX_RECORD_BYTES + 1).fill(0x81) // would be a nesting bomb if decoded
    expect(() => decodeSignedRecord(huge)).toThrow(expect.objectContaining({ code: 'RECORD_TOO_LARGE' }))
  })
})

describe('fuzz: records from JSON (record-v1 §5.1)', () => {
  it('random JSON is refused with an IsnadError', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      expect(refuses(() => verifyRecord(value, options))).toBe(true)
    }), fuzzParams(500))
  })

  it('random objects shaped like a signed record are refused', () => {
    const shaped = fc.record({ record: fc.dictionary(fc.constantFrom('kind', 'version', 'memory', 'witness', 'created_at', 'x'), fc.jsonValue({ maxDepth: 2 })), signature: fc.string() })
    fc.assert(fc.property(shaped, (value) => {
      expect(refuses(() => verifyRecord(value, options))).toBe(true)
    }), fuzzParams(500))
  })

  it('a changed character in any string field (signature, did, CID, time, text) is never accepted', () => {
    fc.assert(fc.property(vector, fc.nat(), textMutation, ({ signed }, pick, mutate) => {
      const paths = stringPaths(signed)
      const path = paths[pick % paths.length] as Array<string | number>
      const changed = mutateAt(signed, path, (v) => mutate(v as string)) as SignedRecord
      if (JSON.stringify(changed) === JSON.stringify(signed)) return
      expect(refuses(() => verifyRecord(changed, options)), path.join('.')).toBe(true)
    }), fuzzParams(300))
  })

  it('a bit flipped in the decoded signature bytes is never accepted', () => {
    fc.assert(fc.property(vector, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 7 }), ({ signed }, at, bit) => {
      const signature = Buffer.from(signed.signature, 'base64')
      signature[at] = (signature[at] as number) ^ (1 << bit)
      const changed = { ...signed, signature: signature.toString('base64').replace(/=+$/, '') }
      expect(refuses(() => verifyRecord(changed, options))).toBe(true)
    }), fuzzParams(500))
  })

  it('parseSignedRecord never throws anything but an IsnadError', () => {
    fc.assert(fc.property(fc.anything(), (value) => {
      try {
        parseSignedRecord(value)
      } catch (err) {
        expect(err).toHaveProperty('code')
      }
    }), fuzzParams(500))
  })
})
