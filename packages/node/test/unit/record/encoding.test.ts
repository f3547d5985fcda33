import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { IsnadError } from '../../../src/errors/index.js'
import { decodeDidKey, encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { cidOfBytes, cidString, decodeSignature, domainTagOf, encodeCanonical, encodeSignature, encodeSignedRecord, recordCidOf, signRecord } from '../../../src/record/index.js'
import { SIGNER_KEY_CACHE_SIZE } from '../../../src/fast-crypto/index.js'
import { signerKeyOf } from '../../../src/fast-crypto/index.js'
import {
  MAX_BODY_BYTES, MAX_CLAIM_BYTES, MAX_CLAIMS, MAX_CONTEXT_FIELD_BYTES, MAX_DERIVED_FROM, MAX_NOTES_BYTES,
  MAX_RECORD_BYTES, MAX_REQUEST_WITNESSES, MAX_SUMMARY_BYTES, MAX_TAG_BYTES, MAX_TAGS, type AttestationRecord,
  type MemoryRecord, type WitnessRequestRecord
} from '../../../src/schema/index.js'
import { seedOf, validVector } from './fixtures.js'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

describe('canonical encoding (record-v1 §2)', () => {
  it('is @ipld/dag-cbor: keys sorted by length, then bytes', () => {
    const { record } = validVector('memory/example').signed
    expect(hex(encodeCanonical(record))).toBe(hex(dagCbor.encode(record)))
    const keys = Object.keys(dagCbor.decode(encodeCanonical(record)) as object)
    expect(keys).toEqual(['kind', 'author', 'content', 'context', 'lineage', 'version', 'created_at'])
  })

  it('treats an undefined optional field as absent (record-v1 §2.2)', () => {
    const { record } = validVector('attestation/confirm').signed as { record: AttestationRecord }
    const withUndefined = { ...record, notes: undefined, claims: undefined }
    expect(hex(encodeCanonical(withUndefined))).toBe(hex(encodeCanonical(record)))
    expect(signRecord(withUndefined, seedOf('bob')).id).toBe(recordCidOf(record).toString())
  })

  it('writes an integral number as an integer and -0 as 0, so 1, 1.0 and -0/0 are one record', () => {
    const { record } = validVector('memory/example').signed as { record: MemoryRecord }
    const one = { ...record, context: { confidence: 1 } }
    expect(hex(encodeCanonical(one.context))).toBe(hex(dagCbor.encode({ confidence: 1 })))
    expect(hex(encodeCanonical({ confidence: 1 }))).toBe('a16a636f6e666964656e636501')
    expect(hex(encodeCanonical({ confidence: -0 }))).toBe(hex(encodeCanonical({ confidence: 0 })))
    expect(hex(encodeCanonical({ confidence: 0.5 }))).toBe('a16a636f6e666964656e6365fb3fe0000000000000')
  })

  it('refuses what the IPLD data model cannot hold', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, undefined]) {
      expect(() => encodeCanonical(value)).toThrow(IsnadError)
    }
  })

  it('round-trips a signed record through its bytes', () => {
    const { signed } = validVector('witness-request/addressed')
    expect(dagCbor.decode(encodeSignedRecord(signed))).toEqual(signed)
  })

  it('cannot reach MAX_RECORD_BYTES with a schema-valid record (record-v1 §4)', () => {
    const cid = validVector('memory/example').cid
    const did = 'did:key:z' + '1'.repeat(128 - 9)
    const memory: MemoryRecord = {
      kind: 'memory',
      version: 1,
      content: {
        type: 'observation',
        summary: 'x'.repeat(MAX_SUMMARY_BYTES),
        body: 'x'.repeat(MAX_BODY_BYTES),
        tags: Array.from({ length: MAX_TAGS }, (_, i) => String(i).padStart(MAX_TAG_BYTES, 't'))
      },
      author: { agent_id: did, platform: 'p'.repeat(MAX_CONTEXT_FIELD_BYTES), handle: 'h'.repeat(MAX_CONTEXT_FIELD_BYTES) },
      created_at: '2026-02-05T16:00:00.000Z',
      context: { session_id: 's'.repeat(MAX_CONTEXT_FIELD_BYTES), trigger: 't'.repeat(MAX_CONTEXT_FIELD_BYTES), confidence: 0.123456789 },
      lineage: { supersedes: cid, derived_from: Array.from({ length: MAX_DERIVED_FROM }, () => cid) }
    }
    const attestation: AttestationRecord = {
      kind: 'attestation', version: 1, memory: cid, witness: did, attestation: 'partial', witnessed_at: '2026-02-05T16:00:00.000Z',
      notes: 'n'.repeat(MAX_NOTES_BYTES), claims: Array.from({ length: MAX_CLAIMS }, () => 'c'.repeat(MAX_CLAIM_BYTES))
    }
    const request: WitnessRequestRecord = {
      kind: 'witness_request', version: 1, memory: cid, requester: did, created_at: '2026-02-05T16:00:00.000Z',
      expires_at: '2026-02-06T16:00:00.000Z', witnesses: Array.from({ length: MAX_REQUEST_WITNESSES }, () => did)
    }
    for (const record of [memory, attestation, request]) {
      const size = encodeCanonical(record).length + 106
      expect(size, record.kind).toBeLessThan(MAX_RECORD_BYTES)
    }
    // The largest, a memory, leaves about 50 KiB of headroom.
    expect(encodeCanonical(memory).length + 106).toBeLessThan(80_000)
  })
})

describe('signatures (record-v1 §3)', () => {
  it.each([
    ['memory', 'isnad/memory/v1\0'], ['attestation', 'isnad/attestation/v1\0'], ['anchor', 'isnad/anchor/v1\0'],
    ['witness_request', 'isnad/witness-request/v1\0']
  ] as const)('%s has the domain tag %j', (kind, tag) => {
    expect(domainTagOf(kind)).toBe(tag)
  })

  it('are unpadded base64 with one spelling per signature (record-v1 R9)', () => {
    const signature = Uint8Array.from({ length: 64 }, (_, i) => i * 3)
    const text = encodeSignature(signature)
    expect(text).toHaveLength(86)
    expect(text).not.toContain('=')
    expect(decodeSignature(text)).toEqual(signature)
    expect(() => decodeSignature(text.slice(0, -1) + 'x')).toThrow(expect.objectContaining({ code: 'SIGNATURE_MALFORMED' }))
  })

  it('refuses to sign with a key that is not the signer\'s', () => {
    const { record } = validVector('memory/example').signed
    expect(() => signRecord(record, seedOf('bob'))).toThrow(expect.objectContaining({ code: 'KEY_INVALID' }))
  })
})

describe('signerKeyOf (record-v1 R10)', () => {
  it('returns what decodeDidKey returns, before and after evicting old entries', () => {
    const dids = Array.from({ length: SIGNER_KEY_CACHE_SIZE + 5 }, (_, i) => {
      const seed = new Uint8Array(32)
      new DataView(seed.buffer).setUint32(0, i + 1)
      return i < 3 ? encodeDidKey(keyPairFromSeed(seed).publicKey) : encodeDidKey(seed)
    })
    for (const did of dids) expect(signerKeyOf(did)).toEqual(decodeDidKey(did))
    for (const did of dids.slice(0, 3)) expect(signerKeyOf(did)).toEqual(decodeDidKey(did))
  })

  it('refuses an invalid did:key every time (failures are not cached)', () => {
    const did = 'did:key:z' + '1'.repeat(40)
    for (let i = 0; i < 2; i++) expect(() => signerKeyOf(did)).toThrow(expect.objectContaining({ code: 'DID_INVALID' }))
  })
})

describe('cidString (record-v1 §2.3)', () => {
  it('is what CID.toString() returns, for any content', () => {
    for (let n = 0; n < 64; n++) {
      const cid = cidOfBytes(Uint8Array.from({ length: n }, (_, i) => i * n))
      expect(cidString(cid)).toBe(CID.decode(cid.bytes).toString())
    }
  })
})
