import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { nobleVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  encodeSignedRecord, isRecordSignatureValid, parseSignedRecord, verifiedIdOf, verifyRecord, verifyRecordAsync, verifyRecordBytes,
  verifyRecordBytesAsync
} from '../../../src/record/index.js'
import type { MemoryRecord, SignedRecord } from '../../../src/schema/index.js'
import { NOW, validVector } from './fixtures.js'

const options = { verifier: nodeCryptoVerifier, now: NOW }
const FUTURE = '2027-01-01T00:00:00Z'

function memory (): SignedRecord<MemoryRecord> {
  return validVector('memory/example').signed as SignedRecord<MemoryRecord>
}

function codeOf (run: () => unknown): string {
  try {
    run()
    return 'accepted'
  } catch (err) {
    return isIsnadError(err) ? err.code : String(err)
  }
}

/** A signature string that decodes to nothing: its last character's spare bits are set. */
const MALFORMED = 'A'.repeat(85) + 'B'

describe('verifyRecord pipeline order (record-v1 §5.2)', () => {
  it('schema before everything: a bad field and a bad signature give SCHEMA_INVALID', () => {
    const signed = memory()
    signed.record.content.type = 'rumor' as MemoryRecord['content']['type']
    signed.signature = MALFORMED
    expect(codeOf(() => verifyRecord(signed, options))).toBe('SCHEMA_INVALID')
  })

  it('within the schema step, a size limit wins: FIELD_TOO_LARGE', () => {
    const signed = memory()
    signed.record.content.summary = 'x'.repeat(513)
    signed.record.content.type = 'rumor' as MemoryRecord['content']['type']
    expect(codeOf(() => verifyRecord(signed, options))).toBe('FIELD_TOO_LARGE')
  })

  it('kind before the signer: WRONG_KIND', () => {
    const signed = memory()
    signed.signature = MALFORMED
    expect(codeOf(() => verifyRecord(signed, { ...options, expectedKind: 'attestation' }))).toBe('WRONG_KIND')
    expect(verifyRecord(memory(), { ...options, expectedKind: 'memory' }).id).toBe(validVector('memory/example').cid)
  })

  it('signer key before the signature: DID_INVALID', () => {
    const signed = memory()
    signed.record.author.agent_id = 'did:key:z' + '1'.repeat(40)
    signed.signature = MALFORMED
    expect(codeOf(() => verifyRecord(signed, options))).toBe('DID_INVALID')
  })

  it('signature before freshness: SIGNATURE_MALFORMED, SIGNATURE_INVALID', () => {
    const signed = memory()
    signed.record.created_at = FUTURE
    expect(codeOf(() => verifyRecord(signed, options))).toBe('SIGNATURE_INVALID')
    signed.signature = MALFORMED
    expect(codeOf(() => verifyRecord(signed, options))).toBe('SIGNATURE_MALFORMED')
  })

  it('freshness is relative to the clock passed in', () => {
    const vector = validVector('memory/at-clock-skew-limit')
    expect(verifyRecord(vector.signed, options).id).toBe(vector.cid)
    expect(codeOf(() => verifyRecord(vector.signed, { ...options, now: NOW - 1 }))).toBe('TIMESTAMP_IN_FUTURE')
  })

  it('names the record in the message and never the key material', () => {
    const signed = memory()
    signed.record.content.body = 'changed'
    try {
      verifyRecord(signed, options)
      expect.unreachable()
    } catch (err) {
      if (!isIsnadError(err)) throw err
      expect(err.code).toBe('SIGNATURE_INVALID')
      expect(err.message).toMatch(/^signature of memory bafyrei[a-z2-7]+ does not verify$/)
      expect(err.details).toMatchObject({ kind: 'memory', signer: signed.record.author.agent_id })
    }
  })
})

describe('verifyRecordBytes (record-v1 §5.2, R18)', () => {
  it('accepts the canonical bytes and returns the same id as the JSON path', () => {
    for (const id of ['memory/example', 'attestation/partial-with-claims', 'anchor/cid', 'witness-request/open']) {
      const vector = validVector(id)
      for (const verifier of [nodeCryptoVerifier, nobleVerifier]) {
        expect(verifyRecordBytes(encodeSignedRecord(vector.signed), { verifier, now: NOW }).id, id).toBe(vector.cid)
      }
    }
  })

  it('refuses bytes followed by anything', () => {
    const bytes = encodeSignedRecord(memory())
    expect(codeOf(() => verifyRecordBytes(Uint8Array.from([...bytes, 0]), options))).toBe('DECODE_FAILED')
  })

  it('takes the record CID the caller peeked for canonical bytes, and gives the same record as without it', () => {
    for (const id of ['memory/example', 'attestation/partial-with-claims', 'anchor/cid', 'witness-request/open']) {
      const vector = validVector(id)
      const bytes = encodeSignedRecord(vector.signed)
      const recordCid = CID.parse(vector.cid)
      const given = verifyRecordBytes(bytes, { ...options, recordCid })
      expect(given.cid, id).toBe(recordCid)
      expect(given, id).toStrictEqual(verifyRecordBytes(bytes, options))
    }
  })

  it('has no other use for the CID given: a signature over another CID does not verify', () => {
    const bytes = encodeSignedRecord(memory())
    const other = CID.parse(validVector('anchor/cid').cid)
    expect(codeOf(() => verifyRecordBytes(bytes, { ...options, recordCid: other }))).toBe('SIGNATURE_INVALID')
  })
})

describe('verifyRecordAsync and verifyRecordBytesAsync', () => {
  it('run every step but the signature before returning: changing the input afterwards changes nothing', async () => {
    const signed = memory()
    const pending = verifyRecordAsync(signed, options)
    signed.record.content.summary = 'changed after the call'
    signed.signature = MALFORMED
    expect((await pending).id).toBe(validVector('memory/example').cid)
    const bytes = encodeSignedRecord(memory())
    const pendingBytes = verifyRecordBytesAsync(bytes, options)
    bytes.fill(0)
    const verified = await pendingBytes
    expect(verified.id).toBe(validVector('memory/example').cid)
    expect(verified.bytes).toEqual(encodeSignedRecord(memory()))
  })

  it('reject rather than throw, with the code verifyRecord throws, in pipeline order', async () => {
    const forged = memory()
    forged.record.content.body = 'changed'
    forged.record.created_at = FUTURE
    expect(codeOf(() => verifyRecord(forged, options))).toBe('SIGNATURE_INVALID')
    await expect(verifyRecordAsync(forged, options)).rejects.toMatchObject({ code: 'SIGNATURE_INVALID', details: { kind: 'memory' } })
    const late = validVector('memory/at-clock-skew-limit')
    await expect(verifyRecordAsync(late.signed, { ...options, now: NOW - 1 })).rejects.toMatchObject({ code: 'TIMESTAMP_IN_FUTURE' })
    const padded = Uint8Array.from([...encodeSignedRecord(memory()), 0])
    await expect(verifyRecordBytesAsync(padded, options)).rejects.toMatchObject({ code: 'DECODE_FAILED' })
    await expect(verifyRecordAsync({ record: {} }, options)).rejects.toMatchObject({ code: 'SCHEMA_INVALID' })
  })
})

describe('isRecordSignatureValid (record-v1 R9–R11)', () => {
  it('is true for a valid record and false for a tampered, malformed or unusable one', () => {
    const valid = parseSignedRecord(memory())
    expect(isRecordSignatureValid(valid, nobleVerifier)).toBe(true)
    const tampered = memory()
    tampered.record.content.summary = 'other'
    expect(isRecordSignatureValid(tampered, nobleVerifier)).toBe(false)
    expect(isRecordSignatureValid({ ...memory(), signature: MALFORMED }, nobleVerifier)).toBe(false)
    const badDid = memory()
    badDid.record.author.agent_id = 'did:key:z' + '1'.repeat(40)
    expect(isRecordSignatureValid(badDid, nobleVerifier)).toBe(false)
  })
})

describe('verifiedIdOf: the bytes the pipeline built, known by identity', () => {
  it('names the id of exactly the bytes a verification returned, in every form, and of no copy or input', async () => {
    const signed = memory()
    const input = encodeSignedRecord(signed)
    const results = [verifyRecord(signed, options), verifyRecordBytes(input, options), await verifyRecordAsync(signed, options), await verifyRecordBytesAsync(input, options)]
    for (const { id, bytes } of results) {
      expect(verifiedIdOf(bytes)).toBe(id)
      expect(verifiedIdOf(bytes.slice())).toBeUndefined()
    }
    // The caller's buffer is never the pipeline's: the bytes a store keeps are built from the record.
    expect(verifiedIdOf(input)).toBeUndefined()
    expect(verifiedIdOf(encodeSignedRecord(signed))).toBeUndefined()
  })
})

describe('verifyRecordBytes on bytes held in a Node Buffer (as the network hands them over)', () => {
  it('keeps a plain copy of its own: the caller may reuse the buffer, and the bytes are a Uint8Array', () => {
    const canonical = encodeSignedRecord(memory())
    const frame = Buffer.alloc(canonical.length + 8)
    frame.set(canonical, 4)
    const received = frame.subarray(4, 4 + canonical.length)
    const verified = verifyRecordBytes(received, options)
    frame.fill(0)
    expect(Object.getPrototypeOf(verified.bytes)).toBe(Uint8Array.prototype)
    expect(verified.bytes).toEqual(canonical)
  })
})
