import * as dagCbor from '@ipld/dag-cbor'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isIsnadError, type ErrorCode } from '../../../src/errors/index.js'
import { nobleVerifier, type SignatureVerifier } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  decodeSignedRecord, encodeCanonical, encodeSignedRecord, signingInputFor, signRecord, verifyRecord,
  verifyRecordAsync, verifyRecordBytes, verifyRecordBytesAsync, type VerifyRecordOptions
} from '../../../src/record/index.js'
import type { IsnadRecord, RecordKind, SignedRecord } from '../../../src/schema/index.js'

/** The normative vectors of protocols/record-v1.md §12, run against src/record. */

interface Key { name: string, seed: string, did: string }
interface ValidVector {
  id: string
  signer: string
  signed: SignedRecord
  cid: string
  record_cbor_length: number
  record_cbor_hex?: string
  signing_input_hex?: string
  signed_cbor_hex?: string
}
interface InvalidVector {
  id: string
  rule: string
  code: ErrorCode
  options?: { expected_kind: RecordKind }
  signed?: unknown
  json_only?: true
  bytes?: { hex: string, zero_pad_to?: number }
  decode_code?: ErrorCode | null
}
interface VectorFile<V> { now: string, keys: Key[], vectors: V[] }

function load<V> (name: string): VectorFile<V> {
  return JSON.parse(readFileSync(new URL(`../../../protocols/vectors/records/${name}`, import.meta.url), 'utf8')) as VectorFile<V>
}

const validFile = load<ValidVector>('valid.json')
const invalidFile = load<InvalidVector>('invalid.json')
const VERIFIERS: SignatureVerifier[] = [nodeCryptoVerifier, nobleVerifier]
const SCHEMA_CODES = new Set<ErrorCode>(['SCHEMA_INVALID', 'FIELD_TOO_LARGE'])
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

/** The code `run` throws, or a description of what it did instead (so the assertion shows it). */
function codeOf (run: () => unknown): string {
  try {
    run()
    return 'accepted'
  } catch (err) {
    if (isIsnadError(err)) return err.code
    return `non-IsnadError: ${String(err)}`
  }
}

/** The code the promise rejects with, or 'accepted'; a synchronous throw is a failure of its own. */
async function asyncCodeOf (run: () => Promise<unknown>): Promise<string> {
  let promise: Promise<unknown>
  try {
    promise = run()
  } catch (err) {
    return `threw synchronously: ${String(err)}`
  }
  return await promise.then(() => 'accepted', (err: unknown) => isIsnadError(err) ? err.code : `non-IsnadError: ${String(err)}`)
}

function bytesOf (spec: { hex: string, zero_pad_to?: number }): Uint8Array {
  const head = Buffer.from(spec.hex, 'hex')
  const out = new Uint8Array(Math.max(head.length, spec.zero_pad_to ?? 0))
  out.set(head)
  return out
}

describe('valid record vectors (record-v1 §12)', () => {
  const seeds = new Map(validFile.keys.map((k) => [k.name, Buffer.from(k.seed, 'hex')]))
  const now = Date.parse(validFile.now)

  it('has vectors of every kind', () => {
    const kinds = new Set(validFile.vectors.map((v) => v.signed.record.kind))
    expect([...kinds].sort()).toEqual(['anchor', 'attestation', 'memory', 'witness_request'])
  })

  for (const vector of validFile.vectors) {
    it(vector.id, async () => {
      for (const verifier of VERIFIERS) {
        const input = structuredClone(vector.signed)
        const result = verifyRecord(input, { verifier, now })
        expect(result.id, `${vector.id} (${verifier.name})`).toBe(vector.cid)
        expect(result.cid.toString(), `${vector.id} (${verifier.name})`).toBe(vector.cid)
        expect(hex(result.bytes), `${vector.id} (${verifier.name}): bytes`).toBe(hex(encodeSignedRecord(vector.signed)))
        const viaAsync = await verifyRecordAsync(structuredClone(vector.signed), { verifier, now })
        expect(viaAsync.id, `${vector.id} async (${verifier.name})`).toBe(vector.cid)
        expect(hex(viaAsync.bytes), `${vector.id} async (${verifier.name}): bytes`).toBe(hex(result.bytes))
        const bytesAsync = await verifyRecordBytesAsync(encodeSignedRecord(vector.signed), { verifier, now })
        expect(bytesAsync.id, `${vector.id} bytes async (${verifier.name})`).toBe(vector.cid)
      }
      const record = vector.signed.record
      const recordBytes = encodeCanonical(record)
      expect(recordBytes.length, vector.id).toBe(vector.record_cbor_length)
      if (vector.record_cbor_hex !== undefined) expect(hex(recordBytes), vector.id).toBe(vector.record_cbor_hex)
      if (vector.signing_input_hex !== undefined) {
        const cid = verifyRecord(vector.signed, { verifier: nodeCryptoVerifier, now }).cid
        expect(hex(signingInputFor(record.kind, cid)), vector.id).toBe(vector.signing_input_hex)
      }
      const wire = encodeSignedRecord(vector.signed)
      if (vector.signed_cbor_hex !== undefined) expect(hex(wire), vector.id).toBe(vector.signed_cbor_hex)
      expect(decodeSignedRecord(wire), vector.id).toEqual(vector.signed)
      for (const verifier of VERIFIERS) {
        expect(verifyRecordBytes(wire, { verifier, now }).id, `${vector.id} bytes (${verifier.name})`).toBe(vector.cid)
      }
      const seed = seeds.get(vector.signer)
      if (seed === undefined) throw new Error(`${vector.id}: unknown signer ${vector.signer}`)
      const again = signRecord(structuredClone(record) as IsnadRecord, seed)
      expect(again.id, `${vector.id} re-signed`).toBe(vector.cid)
      expect(again.signed.signature, `${vector.id} re-signed`).toBe(vector.signed.signature)
    })
  }
})

describe('invalid record vectors (record-v1 §12)', () => {
  const now = Date.parse(invalidFile.now)

  it('covers every refusal code of record-v1 §5', () => {
    const codes = new Set(invalidFile.vectors.map((v) => v.code))
    for (const code of ['SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'SIGNATURE_INVALID', 'SIGNATURE_MALFORMED', 'DID_INVALID',
      'TIMESTAMP_IN_FUTURE', 'RECORD_TOO_LARGE', 'DECODE_FAILED', 'WRONG_KIND'] as const) {
      expect(codes.has(code), code).toBe(true)
    }
  })

  for (const vector of invalidFile.vectors) {
    it(`${vector.id} → ${vector.code} (${vector.rule})`, async () => {
      for (const verifier of VERIFIERS) {
        const options: VerifyRecordOptions = { verifier, now, ...(vector.options === undefined ? {} : { expectedKind: vector.options.expected_kind }) }
        if (vector.bytes !== undefined) {
          const bytes = bytesOf(vector.bytes)
          expect(codeOf(() => verifyRecordBytes(bytes, options)), `${vector.id} verifyRecordBytes (${verifier.name})`).toBe(vector.code)
          expect(await asyncCodeOf(() => verifyRecordBytesAsync(bytes, options)), `${vector.id} verifyRecordBytesAsync (${verifier.name})`).toBe(vector.code)
          const decodeCode = vector.decode_code ?? 'accepted'
          expect(codeOf(() => decodeSignedRecord(bytes)), `${vector.id} decodeSignedRecord`).toBe(decodeCode)
          continue
        }
        expect(codeOf(() => verifyRecord(structuredClone(vector.signed), options)), `${vector.id} verifyRecord (${verifier.name})`).toBe(vector.code)
        expect(await asyncCodeOf(() => verifyRecordAsync(structuredClone(vector.signed), options)), `${vector.id} verifyRecordAsync (${verifier.name})`).toBe(vector.code)
        if (vector.json_only === true) continue
        // The same fault carried by DAG-CBOR: the schema step refuses it in decodeSignedRecord,
        // every later step in verifyRecordBytes.
        const bytes = dagCbor.encode(vector.signed)
        if (SCHEMA_CODES.has(vector.code)) {
          expect(codeOf(() => decodeSignedRecord(bytes)), `${vector.id} decodeSignedRecord`).toBe(vector.code)
        } else {
          expect(codeOf(() => decodeSignedRecord(bytes)), `${vector.id} decodeSignedRecord`).toBe('accepted')
          expect(codeOf(() => verifyRecordBytes(bytes, options)), `${vector.id} verifyRecordBytes (${verifier.name})`).toBe(vector.code)
          expect(await asyncCodeOf(() => verifyRecordBytesAsync(bytes, options)), `${vector.id} verifyRecordBytesAsync (${verifier.name})`).toBe(vector.code)
        }
      }
    })
  }
})
