import { cp, mkdtemp, open, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { archiveShards } from '../../../src/ledger/audit/index.js'
import { LocalNode, reindex } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { auditHome } from './audit-home.js'
import { createAgent, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'
import { INDEX_FORMAT } from '../../../src/record-index/index.js'
import { LATIN1 } from '../../../src/record-index/level/binary-keys.js'

/*
 * Each record stored once: the index keeps where a record's bytes are in the ledger's
 * packs (record-index/level/record-location.ts), not the bytes, and every read takes them from there and
 * hashes them against the record's id. The home is the fixture of 40f8ecc (per-record events of
 * the layout before packs, whose records stay held in the index) plus new batches: pages inline in
 * their events and a page large enough to be a pack file.
 */

const FIXTURE = join(import.meta.dirname, '../../fixtures/home-40f8ecc/memory')
const alice = createAgent(90)
const bob = createAgent(91)

/** The `records` sublevel's values by tag: 0 held bytes, 1 inline pack, 2 pack file (record-location.ts). */
async function valueTags (home: string): Promise<{ tags: Record<number, number>, bytes: number }> {
  const db = new Level<string, Uint8Array>(join(nodePaths(home).index, 'records'), { keyEncoding: LATIN1, valueEncoding: 'view' })
  const tags: Record<number, number> = {}
  let bytes = 0
  try {
    for await (const [, value] of db.iterator({ gte: '!r!', lt: '!r"' })) {
      tags[value[0] as number] = (tags[value[0] as number] ?? 0) + 1
      bytes += value.length
    }
  } finally {
    await db.close()
  }
  return { tags, bytes }
}

async function setFormat (home: string, format: string): Promise<void> {
  const db = new Level<string, string>(join(nodePaths(home).index, 'records'), { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  await db.put('!meta!format', format)
  await db.close()
}

describe('records stored once: the index locates them in the ledger', () => {
  let home: string
  const small = Array.from({ length: 20 }, (_, i) => createMemory(alice, { tags: ['located'], summary: `inline ${i}` }))
  const large = Array.from({ length: 48 }, (_, i) => createMemory(alice, { tags: ['located'], summary: `file ${i}`, body: 'y'.repeat(12_000) }))
  const attestations = small.slice(0, 5).map((m) => createAttestation(bob, m.id))
  const request = createWitnessRequest(alice, small[0]!.id, [bob])
  const all = [...small, ...large, ...attestations]

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-locations-'))
    await cp(FIXTURE, nodePaths(home).data, { recursive: true })
    // Written on a day past (after the fixture's records, before today), so `ledger archive` may take its shard.
    let tick = 0
    const node = await LocalNode.open({ home, clock: () => Date.parse('2026-11-21T12:00:00Z') + tick++ })
    try {
      await node.ingest(small.map((m) => m.signed), 'sync') // one inline pack
      await node.ingest(large.map((m) => m.signed), 'sync') // 580 kB: a pack file
      await node.ingest([...attestations, request].map((r) => r.signed), 'gossip') // inline pack + a witness request on bus/
    } finally {
      await node.close()
    }
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('keeps locations, not bytes, for packed records, and serves every record whole', async () => {
    const { tags, bytes } = await valueTags(home)
    // 11 records of the fixture's per-record events and the witness request are held; 25 inline, 48 in the pack file.
    expect(tags).toEqual({ 0: 12, 1: 25, 2: 48 })
    expect(bytes / (25 + 48 + 12)).toBeLessThan(100)
    const node = await LocalNode.open({ home, mode: 'read' })
    try {
      const bytesRead = await node.store.getBytesMany(all.map((r) => r.id))
      for (const [i, record] of all.entries()) {
        expect((await node.store.get(record.id))?.signed, record.id).toEqual(record.signed)
        expect(bytesRead[i], record.id).toBeDefined()
      }
      expect((await node.store.attestationsFor(small[0]!.id)).map((a) => a.id)).toEqual([attestations[0]!.id])
      expect((await node.store.witnessRequestsFor(small[0]!.id)).map((a) => a.id)).toEqual([request.id])
    } finally {
      await node.close()
    }
    expect((await auditHome(home)).status).toBe('healthy')
  })

  it('refuses a record whose located bytes changed (RECORD_LOCATION_INVALID), never returning another', async () => {
    const shards = join(nodePaths(home).data, 'streams', 'default')
    const [instance] = await readdir(shards)
    const [day] = (await readdir(join(shards, instance as string))).filter((n) => n.endsWith('.jsonl')).sort().reverse()
    const file = join(shards, instance as string, day as string)
    // A character of the first inline pack's base64, well inside its record blocks, changed in place.
    const text = await readFile(file, 'latin1')
    const carAt = text.indexOf('"car":"') + 7
    const at = carAt + 2_000
    const handle = await open(file, 'r+')
    await handle.write(Buffer.from(text[at] === 'A' ? 'B' : 'A', 'latin1'), 0, 1, at)
    await handle.close()
    const node = await LocalNode.open({ home, mode: 'read' })
    try {
      const failures: string[] = []
      for (const record of small) {
        try {
          const read = await node.store.get(record.id)
          expect(read?.signed).toEqual(record.signed) // whatever is returned is the record itself
        } catch (err) {
          expect(isIsnadError(err, 'RECORD_LOCATION_INVALID')).toBe(true)
          failures.push(record.id)
        }
      }
      expect(failures).toHaveLength(1)
    } finally {
      await node.close()
    }
  })

  it('reindex computes the same locations from the ledger, and an index of layout 4 is rebuilt on open', async () => {
    const before = await valueTags(home)
    await rm(nodePaths(home).index, { recursive: true, force: true })
    await reindex(home)
    expect(await valueTags(home)).toEqual(before)
    // An index stamped with the layout before locations (records held as bytes) is never read as
    // locations: the node rebuilds it when it opens.
    await setFormat(home, '4')
    const node = await LocalNode.open({ home })
    try {
      for (const record of all) expect((await node.store.get(record.id))?.signed, record.id).toEqual(record.signed)
    } finally {
      await node.close()
    }
    expect(await valueTags(home)).toEqual(before)
    expect((await auditHome(home)).status).toBe('healthy')
  }, 120_000)

  it('rebuilds an index of layout 5 or 6 on open: binary keys, no `wit` links, query values only where the position does not give created_at', async () => {
    await setFormat(home, '5')
    const db = new Level<string, string>(join(nodePaths(home).index, 'records'), { keyEncoding: 'utf8', valueEncoding: 'utf8' })
    await db.put(`!links!wit\x00${alice.did}\x00${all[0]?.id ?? ''}`, '') // as layout 5 wrote them
    await db.close()
    const node = await LocalNode.open({ home })
    try {
      expect((await node.store.query({ limit: 100 })).items.map((hit) => hit.created_at)).toContain(small[0]?.signed.record.created_at)
    } finally {
      await node.close()
    }
    const raw = new Level<string, string>(join(nodePaths(home).index, 'records'), { keyEncoding: LATIN1, valueEncoding: 'utf8' })
    try {
      expect(await raw.get('!meta!format')).toBe(INDEX_FORMAT)
      // Nothing of the text layout is left: every key of a sublevel has its one-letter name.
      expect(await raw.keys({ gte: '!links!', lt: '!links"' }).all()).toEqual([])
      expect(await raw.keys({ gte: '!records!', lt: '!records"' }).all()).toEqual([])
      expect(await raw.keys({ gte: '!query!', lt: '!query"' }).all()).toEqual([])
      const values = await raw.values({ gte: '!q!', lt: '!q"' }).all()
      expect(values.length).toBeGreaterThan(0)
      // A value is kept only where the position's time would not print it back (e.g. `…:00Z`, the
      // test records' whole seconds): never the ISO form the position gives.
      for (const value of values) expect(value === '' || new Date(value).toISOString() !== value).toBe(true)
      expect(values).toContain(small[0]?.signed.record.created_at)
    } finally {
      await raw.close()
    }
  }, 120_000)

  it('after `ledger archive` compresses the shards, the records are located in the pack files it wrote out', async () => {
    const before = await valueTags(home)
    const archived = await archiveShards({ dataDir: nodePaths(home).data, olderThanDays: 1, now: Date.now })
    expect(archived.skipped).toEqual([])
    expect(archived.packs).toBe(2) // the two inline packs; the third was a file already
    // The CLI rebuilds the index when packs were written out (`isnad ledger archive`); should it
    // stop before (a crash), the node finds the index naming a shard that is gone and rebuilds it.
    const reader = await LocalNode.open({ home })
    await reader.close()
    const after = await valueTags(home)
    expect(after.tags).toEqual({ 0: 12, 2: 73 })
    expect(after.bytes).toBeLessThan(before.bytes + 12 * 8)
    const node = await LocalNode.open({ home, mode: 'read' })
    try {
      for (const record of all) expect((await node.store.get(record.id))?.signed, record.id).toEqual(record.signed)
    } finally {
      await node.close()
    }
    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
  }, 120_000)
})
