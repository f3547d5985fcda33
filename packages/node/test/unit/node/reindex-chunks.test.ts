import { describe, expect, it } from 'vitest'
import { IsnadError, isIsnadError } from '../../../src/errors/index.js'
import type { LedgerEvent, MemoryRecord } from '../../../src/schema/index.js'
import { prepareRecords, type PreparedRecord, type StoredRecord } from '../../../src/record-index/index.js'
import { EventsChunkBuilder, decodeChunk, errorOfWire, memoriesChunk, wireError } from '../../../src/node/reindex/reindex-chunks.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/** The chunks the reindex reader thread sends: what goes in comes out. */

const alice = createAgent(50)
const bob = createAgent(51)

function eventOf (lc: number, key: string): LedgerEvent {
  return { lc, idempotency_key: key, event_id: `evt_${lc}` } as unknown as LedgerEvent
}

describe('reindex chunks', () => {
  const memory = prepareRecords([createMemory(alice, { tags: ['a'] })])[0] as PreparedRecord
  const attestation = prepareRecords([createAttestation(bob, memory.id)])[0] as PreparedRecord

  it('carries events, leaves in order, non-memory records and checkpoints', () => {
    const builder = new EventsChunkBuilder()
    builder.addEvent(eventOf(3, 'k3'))
    builder.addRecord(memory, { kind: 'inline', file: 'streams/s/i/2026-03-01.jsonl', base: 900, offset: 120, length: 400 })
    builder.addEvent(eventOf(5, 'k5'))
    builder.addRecord(attestation, { kind: 'pack', file: 'packs/s/bafy.car', offset: 77, length: 300 })
    builder.addEvent(eventOf(9, 'k9'))
    const chunk = decodeChunk(structuredClone(builder.finish()))
    if (chunk.kind !== 'events') throw new Error('an events chunk')
    expect(chunk).toMatchObject({ events: 3, lastLc: 9, ids: [memory.id, attestation.id], checkpoints: [] })
    expect(chunk.keys).toEqual([{ idempotency_key: 'k3', event_id: 'evt_3' }, { idempotency_key: 'k5', event_id: 'evt_5' }, { idempotency_key: 'k9', event_id: 'evt_9' }])
    expect(chunk.records).toEqual([{ id: attestation.id, signed: attestation.signed }])
    // Every record's location, in ledger order (the store numbers files in that order); a memory's travels again with the memory once scored.
    expect([...chunk.locations]).toEqual([
      [memory.id, { kind: 'inline', file: 'streams/s/i/2026-03-01.jsonl', base: 900, offset: 120, length: 400 }],
      [attestation.id, { kind: 'pack', file: 'packs/s/bafy.car', offset: 77, length: 300 }]
    ])
  })

  it('carries memories with their trust (the store encodes them and checks their ids)', () => {
    const memories = [memory, createMemory(bob)].map(({ id, signed }) => ({ id, signed }) as StoredRecord<MemoryRecord>)
    const trust = [{ score: 0.5, level: 'medium', policy: 'p', computed_at: '2026-03-01T00:00:00.000Z' }, { score: 0, level: 'low', policy: 'p', computed_at: '2026-03-01T00:00:00.000Z' }]
    const located = { kind: 'inline' as const, file: 'streams/s/i/2026-03-01.jsonl', base: 10, offset: 3, length: 5 }
    const chunk = decodeChunk(structuredClone(memoriesChunk(memories, trust, new Map([[memory.id, located]]))))
    if (chunk.kind !== 'memories') throw new Error('a memories chunk')
    expect(chunk.records).toEqual(memories)
    expect([...chunk.locations]).toEqual([[memory.id, located]])
    expect([...chunk.trust]).toEqual(memories.map((m, i) => [m.id, trust[i]]))
  })

  it('brings an error across with its code, details and message', () => {
    const err = errorOfWire(structuredClone(wireError(new IsnadError('LEDGER_CORRUPT', 'f line 3 (byte 10): hash', { details: { line: 3 } }))))
    expect(isIsnadError(err, 'LEDGER_CORRUPT')).toBe(true)
    expect(err).toMatchObject({ message: 'f line 3 (byte 10): hash', details: { line: 3 } })
    const plain = new TypeError('bad')
    expect(errorOfWire(structuredClone(wireError(plain)))).toMatchObject({ name: 'TypeError', message: 'bad' })
  })
})
