import { CarReader } from '@ipld/car/reader'
import * as dagCbor from '@ipld/dag-cbor'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { buildPack, packInlineMaxOf, packPayloadOf, PACK_INLINE_MAX_BYTES, PACK_PAGE_INLINE_MAX_BYTES, PackPayloadSchema, readPackCar, readPackRecords } from '../../../src/ledger/index.js'
import { cidOfBytes, cidString } from '../../../src/record/index.js'

const records = [dagCbor.encode({ record: { n: 1 }, signature: 'a' }), dagCbor.encode({ record: { n: 2 }, signature: 'b' })]

describe('record packs (docs/ledger-packs.md)', () => {
  it('are CAR v1 files an ordinary CAR reader reads: one root listing the record blocks, each under the CID of its bytes', async () => {
    const pack = buildPack(records)
    const reader = await CarReader.fromBytes(pack.car)
    expect(reader.version).toBe(1)
    const roots = await reader.getRoots()
    expect(roots.map(String)).toEqual([pack.cid])
    const blocks = []
    for await (const block of reader.blocks()) blocks.push(block)
    expect(blocks.map((b) => b.cid.toString())).toEqual([pack.cid, ...records.map((r) => cidString(cidOfBytes(r)))])
    expect((dagCbor.decode(blocks[0]!.bytes) as unknown[]).map(String)).toEqual(records.map((r) => cidString(cidOfBytes(r))))
    expect(readPackCar(pack.cid, pack.car)).toEqual(records)
  })

  it('are content-addressed: the same records in the same order make the same pack, another order another', () => {
    expect(buildPack(records)).toEqual(buildPack(records))
    expect(buildPack([...records].reverse()).cid).not.toBe(buildPack(records).cid)
  })

  it('refuse a flipped byte, a truncation, another name and a root that does not list the blocks', () => {
    const pack = buildPack(records)
    const refused = (cid: string, car: Uint8Array): boolean => {
      try {
        readPackCar(cid, car)
        return false
      } catch (err) {
        return isIsnadError(err, 'LEDGER_CORRUPT')
      }
    }
    const flipped = pack.car.slice()
    flipped[flipped.length - 2] = (flipped[flipped.length - 2] as number) ^ 1
    expect(refused(pack.cid, flipped)).toBe(true)
    expect(refused(pack.cid, pack.car.subarray(0, pack.car.length - 3))).toBe(true)
    expect(refused(buildPack([records[0]!]).cid, pack.car)).toBe(true)
    const other = buildPack([records[0]!])
    // a CAR whose root lists one block, followed by two
    const spliced = new Uint8Array([...other.car, ...pack.car.subarray(pack.car.length - (pack.car.length - buildPack([records[0]!]).car.length))])
    expect(refused(other.cid, spliced)).toBe(true)
  })

  it('travel inside their event up to PACK_INLINE_MAX_BYTES, else as a file the event names', () => {
    const small = packPayloadOf(buildPack(records), ['a', 'b'], 'sync')
    expect(Buffer.from(PackPayloadSchema.parse(small).car ?? '', 'base64')).toEqual(Buffer.from(buildPack(records).car))
    expect(small.bytes).toBe(buildPack(records).car.length)
    const big = buildPack(Array.from({ length: 40 }, (_, i) => dagCbor.encode({ record: { n: i, pad: 'x'.repeat(14_000) }, signature: 's' })))
    expect(big.car.length).toBeGreaterThan(PACK_INLINE_MAX_BYTES)
    expect(packPayloadOf(big, Array.from({ length: 40 }, (_, i) => String(i)), 'sync').car).toBeUndefined()
  })

  it('make a sync, fetch or import page above 64 KiB a file, and keep gossip and local batches inline up to 512 KiB', () => {
    // Records of figure 8c's sizes: about 460 bytes (an attestation ~330, a memory ~800).
    const page = buildPack(Array.from({ length: 256 }, (_, i) => dagCbor.encode({ record: { n: i, pad: 'x'.repeat(420) }, signature: 's' })))
    const ids = Array.from({ length: 256 }, (_, i) => String(i))
    expect(page.car.length).toBeGreaterThan(PACK_PAGE_INLINE_MAX_BYTES)
    for (const source of ['sync', 'fetch', 'import', 'replay']) expect(packPayloadOf(page, ids, source).car, source).toBeUndefined()
    for (const source of ['gossip', 'local']) expect(packPayloadOf(page, ids, source).car, source).toBeDefined()
    const small = buildPack(Array.from({ length: 100 }, (_, i) => dagCbor.encode({ record: { n: i, pad: 'x'.repeat(420) }, signature: 's' })))
    expect(small.car.length).toBeLessThanOrEqual(PACK_PAGE_INLINE_MAX_BYTES)
    expect(packPayloadOf(small, ids.slice(0, 100), 'sync').car).toBeDefined()
    expect(packInlineMaxOf('gossip')).toBe(PACK_INLINE_MAX_BYTES)
  })

  it('read an inline pack only from the canonical base64 of its bytes, of the length its event says', async () => {
    const payload = packPayloadOf(buildPack(records), ['a', 'b'], 'sync')
    expect((await readPackRecords('/nonexistent', 'default', payload)).map((b) => Uint8Array.from(b))).toEqual(records)
    const text = payload.car ?? ''
    const refusal = async (changed: typeof payload): Promise<string> => await readPackRecords('/nonexistent', 'default', changed).then(() => 'read', (err: Error) => err.message)
    // Node's decoder would skip the space and read the same bytes: refused all the same.
    expect(await refusal({ ...payload, car: `${text.slice(0, 8)} ${text.slice(8)}` })).toMatch(/not canonical base64/)
    expect(await refusal({ ...payload, bytes: payload.bytes + 1 })).toMatch(/its event says/)
    expect(await refusal({ ...payload, records: ['a'] })).toMatch(/its event names 1/)
  })
})
