import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FetchRequestSchema, MAX_ENVELOPE_BYTES, MAX_FETCH_IDS, MAX_SYNC_PAGE_SIZE, SyncHeaderSchema, SyncRequestSchema, decodeWitnessEnvelope,
  encodeWitnessEnvelope
} from '../../../src/net/index.js'
import { decodeWire, encodeWire } from '../../../src/net/wire/wire-messages.js'
import { encodeCanonical, encodeSignedRecord } from '../../../src/record/index.js'
import { createAgent, createMemory, createWitnessRequest } from '../../fixtures/records.js'

const ids = fc.array(fc.nat(), { minLength: 1, maxLength: MAX_FETCH_IDS }).map((ns) => ns.map((n) => createMemory(createAgent(n % 4), { summary: `m${n}` }).id))

describe('wire messages (gossip-v1 §4, fetch-v1 §2, sync-v1 §2)', () => {
  it('round-trips a witness-request envelope, memory and request as byte strings', () => {
    const memory = encodeSignedRecord(createMemory(createAgent(1)).signed)
    const request = encodeSignedRecord(createWitnessRequest(createAgent(1), createMemory(createAgent(1)).id).signed)
    const envelope = encodeWitnessEnvelope(request, memory)
    expect(decodeWitnessEnvelope(envelope)).toEqual({ memory, request })
    // DAG-CBOR orders keys by length: "memory" (6) before "request" (7).
    expect(Buffer.from(envelope.subarray(0, 8)).toString('latin1')).toBe('\xa2fmemory')
  })

  it('refuses envelopes that are oversized, malformed, non-canonical or have other fields', () => {
    const bytes = Uint8Array.of(1, 2, 3)
    expect(() => decodeWitnessEnvelope(new Uint8Array(MAX_ENVELOPE_BYTES + 1))).toThrow(expect.objectContaining({ code: 'RECORD_TOO_LARGE' }))
    expect(() => decodeWitnessEnvelope(Uint8Array.of(0xa2))).toThrow(expect.objectContaining({ code: 'DECODE_FAILED' }))
    expect(() => decodeWitnessEnvelope(encodeCanonical({ memory: bytes, request: bytes, extra: 1 }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    expect(() => decodeWitnessEnvelope(encodeCanonical({ memory: 'text', request: bytes }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    // The same map with a non-minimal length header for `memory`'s bytes: not canonical.
    const canonical = encodeWitnessEnvelope(bytes, bytes)
    const padded = Uint8Array.from([...canonical.subarray(0, 8), 0x58, 0x03, ...canonical.subarray(9)])
    expect(() => decodeWitnessEnvelope(padded)).toThrow(expect.objectContaining({ code: 'DECODE_FAILED' }))
  })

  it('round-trips fetch requests and refuses empty, oversized or non-CID lists', () => {
    fc.assert(fc.property(ids, (list) => {
      expect(decodeWire(encodeWire({ ids: list }), FetchRequestSchema, 'fetch request', 4096)).toEqual({ ids: list })
    }), { numRuns: 30 })
    const one = createMemory(createAgent(1)).id
    expect(() => decodeWire(encodeWire({ ids: [] }), FetchRequestSchema, 'r', 4096)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    expect(() => decodeWire(encodeWire({ ids: Array(MAX_FETCH_IDS + 1).fill(one) }), FetchRequestSchema, 'r', 8192)).toThrow(expect.objectContaining({ code: 'FIELD_TOO_LARGE' }))
    expect(() => decodeWire(encodeCanonical({ ids: ['not a cid'] }), FetchRequestSchema, 'r', 4096)).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
  })

  it('round-trips sync requests and headers within their bounds', () => {
    fc.assert(fc.property(fc.nat(), fc.integer({ min: 1, max: MAX_SYNC_PAGE_SIZE }), (cursor, limit) => {
      expect(decodeWire(encodeWire({ cursor, limit }), SyncRequestSchema, 'sync request', 256)).toEqual({ cursor, limit })
      expect(decodeWire(encodeWire({ count: limit, next: cursor }), SyncHeaderSchema, 'sync header', 256)).toEqual({ count: limit, next: cursor })
    }))
    expect(() => decodeWire(encodeWire({ cursor: 0, limit: MAX_SYNC_PAGE_SIZE + 1 }), SyncRequestSchema, 'r', 256)).toThrow()
    expect(() => decodeWire(encodeCanonical({ cursor: -1, limit: 1 }), SyncRequestSchema, 'r', 256)).toThrow()
    expect(() => decodeWire(encodeCanonical({ cursor: 1.5, limit: 1 }), SyncRequestSchema, 'r', 256)).toThrow()
  })
})
