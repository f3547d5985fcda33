import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildPack } from '../../../src/ledger/index.js'
import { encodeCanonical } from '../../../src/record/index.js'
import { LocationReader, type LocatedRead } from '../../../src/record-index/level/location-reader.js'
import type { StoredRecord } from '../../../src/record-index/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The reads behind every record the index serves (record-index/level/location-reader.ts): a block of a
 * pack file, or the base64 characters of an inline pack inside a line, decoded locally, at every
 * alignment of the block against base64's 3-byte groups; coalesced reads; and every record hashed
 * against its id.
 */

const alice = createAgent(11)
const records: StoredRecord[] = Array.from({ length: 9 }, (_, i) => createMemory(alice, { summary: `m${i}`, body: 'z'.repeat([0, 1, 3, 4, 7, 9, 12, 13, 17][i] as number) }))
records.push(createAttestation(createAgent(12), records[0]!.id))
const pack = buildPack(records.map((r) => encodeCanonical(r.signed)))

describe('LocationReader', () => {
  let dir: string
  let reader: LocationReader
  const prefix = '{"a":1,"car":"'
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isnad-location-reader-'))
    await writeFile(join(dir, 'pack.car'), pack.car)
    await writeFile(join(dir, 'line.jsonl'), 'x'.repeat(1000) + '\n' + prefix + Buffer.from(pack.car).toString('base64') + '"}\n')
    reader = new LocationReader(dir, 2)
  })
  afterEach(async () => {
    await reader.close()
    await rm(dir, { recursive: true, force: true })
  })

  const inline = (i: number): LocatedRead => ({ id: records[i]!.id, file: 'line.jsonl', value: { kind: 'inline', file: 0, base: 1001 + prefix.length, offset: pack.offsets[i]!, length: pack.lengths[i]! } })
  const inFile = (i: number): LocatedRead => ({ id: records[i]!.id, file: 'pack.car', value: { kind: 'pack', file: 1, offset: pack.offsets[i]!, length: pack.lengths[i]! } })

  it('reads every block, inline (each alignment mod 3) and from the file, alone and coalesced', async () => {
    expect(new Set(pack.offsets.map((o) => o % 3)).size).toBe(3)
    const expected = records.map((r) => encodeCanonical(r.signed))
    for (let i = 0; i < records.length; i++) {
      expect(await reader.readMany([inline(i)]), `inline ${i}`).toEqual([expected[i]])
      expect(await reader.readMany([inFile(i)]), `file ${i}`).toEqual([expected[i]])
    }
    const mixed = records.flatMap((_, i) => [inFile(records.length - 1 - i), inline(i)])
    expect(await reader.readMany(mixed)).toEqual(records.flatMap((_, i) => [expected[records.length - 1 - i], expected[i]]))
  })

  it('refuses bytes that are not the record named (RECORD_LOCATION_INVALID), a read past the end, a missing file', async () => {
    const swapped = { ...inFile(1), id: records[2]!.id }
    await expect(reader.readMany([swapped])).rejects.toMatchObject({ code: 'RECORD_LOCATION_INVALID', details: { id: records[2]!.id, file: 'pack.car' } })
    const shifted = inline(3)
    if (shifted.value.kind === 'inline') shifted.value.offset += 1
    await expect(reader.readMany([shifted])).rejects.toMatchObject({ code: 'RECORD_LOCATION_INVALID' })
    const beyond = inFile(4)
    beyond.value.offset = pack.car.length - 3
    await expect(reader.readMany([beyond])).rejects.toMatchObject({ code: 'RECORD_LOCATION_INVALID' })
    await expect(reader.readMany([{ ...inFile(0), file: 'gone.car' }])).rejects.toMatchObject({ code: 'RECORD_LOCATION_INVALID' })
    // A failed read leaves the reader usable.
    expect(await reader.readMany([inFile(0)])).toEqual([encodeCanonical(records[0]!.signed)])
  })
})
