import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeStoredValue, encodeHeld, encodeLocation } from '../../../src/record-index/level/record-location.js'
import { encodeCanonical, recordPartOf } from '../../../src/record/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/** The `records` values of index layout 5 (record-index/level/record-location.ts) and the record part of signed bytes. */
describe('record locations as the index keeps them', () => {
  it('encodes the vectors of record-location.ts', () => {
    // tag, then LEB128: file 3, base 300 (0xac 0x02), offset 127, length 128 (0x80 0x01)
    expect([...encodeLocation({ kind: 'inline', file: 'streams/s/i/d.jsonl', base: 300, offset: 127, length: 128 }, 3)]).toEqual([1, 3, 0xac, 0x02, 0x7f, 0x80, 0x01])
    expect([...encodeLocation({ kind: 'pack', file: 'packs/s/c.car', offset: 0, length: 1 }, 0)]).toEqual([2, 0, 0, 1])
    expect([...encodeHeld(Uint8Array.of(9, 8))]).toEqual([0, 9, 8])
  })

  it('decodes what it encodes, offsets past 4 GiB included (property)', () => {
    const n = fc.oneof(fc.nat(200), fc.nat(), fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 256) }))
    fc.assert(fc.property(fc.boolean(), n, n, n, n, (inline, file, base, offset, length) => {
      const location = inline ? { kind: 'inline' as const, file: 'f', base, offset, length } : { kind: 'pack' as const, file: 'f', offset, length }
      const { file: _name, ...rest } = location
      expect(decodeStoredValue('id', encodeLocation(location, file))).toEqual({ ...rest, file })
    }))
  })

  it('refuses a damaged value with DECODE_FAILED naming the record', () => {
    for (const bad of [Uint8Array.of(1, 3, 0x80), Uint8Array.of(2, 1, 2), Uint8Array.of(7, 1, 2, 3), Uint8Array.of(1, 1, 2, 3, 4, 5)]) {
      expect(() => decodeStoredValue('bafyx', bad)).toThrow(expect.objectContaining({ code: 'DECODE_FAILED', details: { id: 'bafyx' } }))
    }
  })

  it('finds the record part of signed bytes without the signature, as the record encodes it', () => {
    const alice = createAgent(3)
    const memory = createMemory(alice, { summary: 'signature inside: isignature', body: 'isignature'.repeat(40) })
    for (const stored of [memory, createAttestation(createAgent(4), memory.id)]) {
      expect(Buffer.from(recordPartOf(encodeCanonical(stored.signed)) ?? [])).toEqual(Buffer.from(encodeCanonical(stored.signed.record)))
    }
    expect(recordPartOf(Uint8Array.of(1, 2, 3))).toBeUndefined()
    const bytes = encodeCanonical(memory.signed)
    expect(recordPartOf(bytes.subarray(0, bytes.length - 1))).toBeUndefined() // the signature text cut short
  })
})
