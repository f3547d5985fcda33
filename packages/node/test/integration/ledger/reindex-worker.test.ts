import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import * as dagCbor from '@ipld/dag-cbor'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { buildPack, openEventLedger, packPath, packPayloadOf, readPackCar, withLineHash, type PackPayload } from '../../../src/ledger/index.js'
import { LocalNode, initHome, type Signer } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { recordEventOf, recordOfEvent } from '../../../src/node/journal/record-events.js'
import { reindexHome } from '../../../src/node/reindex/reindex.js'
import type { LedgerEvent } from '../../../src/schema/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * Reindex reads, checks and encodes the ledger in a worker thread (reindex-read.ts) and writes on the
 * calling thread. Run from the sources here, so the thread runs the same code as the test.
 */

const alice = createAgent(40)
const bob = createAgent(41)
const carol = createAgent(42)
const signer = (a: { did: string, secretKey: Uint8Array }): Signer => ({ did: a.did, secretKey: a.secretKey })
const NOW = Date.parse('2026-03-01T00:00:00Z')
const clock = (): number => NOW

/**
 * Every entry of both index databases (records and journal), values in base64, but for the runs of
 * log positions: a node writes one run per append, a rebuild longer ones; `logOrder` reads them.
 */
async function dumpIndex (home: string): Promise<Record<string, string>> {
  const entries: Record<string, string> = {}
  for (const name of ['records', 'journal']) {
    const db = new Level<string, Uint8Array>(join(nodePaths(home).index, name), { valueEncoding: 'view' })
    try {
      for await (const [key, value] of db.iterator()) {
        if (!(name === 'journal' && key.startsWith('!leaves!'))) entries[`${name} ${key}`] = Buffer.from(value).toString('base64')
      }
    } finally {
      await db.close()
    }
  }
  return entries
}

async function logOrder (home: string): Promise<string[]> {
  const state = await JournalState.open(join(nodePaths(home).index, 'journal'))
  try {
    return (await state.recordsSince(0, 1000)).ids
  } finally {
    await state.close()
  }
}

async function queries (home: string): Promise<unknown> {
  const node = await LocalNode.open({ home, mode: 'read', clock })
  try {
    const shapes = [{}, { tags: ['t1'] }, { tags: ['t2'], minTrust: 0.3 }, { author: alice.did }, { limit: 3 }]
    return await Promise.all(shapes.map(async (q) => (await node.query(q)).items.map((i) => [i.id, i.trust, i.level])))
  } finally {
    await node.close()
  }
}

async function shardOf (home: string): Promise<string> {
  const streams = join(nodePaths(home).data, 'streams/default')
  const [instance] = await readdir(streams)
  const dir = join(streams, instance as string)
  const [file] = await readdir(dir)
  return join(dir, file as string)
}

/** Replaces line `index` (0-based) of the shard with what `change` makes of it. */
async function rewriteLine (path: string, index: number, change: (line: string) => string): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n')
  lines[index] = change(lines[index] as string)
  await writeFile(path, lines.join('\n'))
}

/** The 0-based line of the first event of `type` after `after`. */
async function lineOf (path: string, after: number, type = 'memory.captured'): Promise<number> {
  const lines = (await readFile(path, 'utf8')).split('\n')
  const index = lines.findIndex((line, i) => i > after && line.includes(`"type":"${type}"`))
  expect(index).toBeGreaterThan(after)
  return index
}

describe('reindex through the reader thread', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-reindex-worker-'))
    await initHome(home)
    const node = await LocalNode.open({ home, clock })
    // Bodies of 14 kB: the 40 memories make a pack above PACK_INLINE_MAX_BYTES, a file (docs/ledger-packs.md).
    const memories = Array.from({ length: 40 }, (_, i) => createMemory(i % 3 === 0 ? carol : alice, {
      tags: [`t${i % 3}`], created_at: `2026-02-0${1 + (i % 5)}T10:00:${String(i).padStart(2, '0')}Z`, body: `body ${i} ${'b'.repeat(14_000)}`
    }))
    await node.ingest(memories.map((m) => m.signed))
    await node.ingest(memories.filter((_, i) => i % 2 === 0).map((m) => createAttestation(bob, m.id, 'confirm').signed))
    await node.ingest([createAttestation(carol, memories[1]!.id, 'dispute').signed, createAnchor(bob, memories[2]!.id).signed])
    await node.requestWitnesses({ memory: memories[3]!.id, to: [bob.did] }, signer(alice))
    await node.journal.checkpoint()
    await node.ingest(memories.slice(0, 5).map((m) => m.signed)) // already journaled: no new events
    await node.close()
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('rebuilds exactly the index the node built as it went', async () => {
    const live = await dumpIndex(home)
    const liveOrder = await logOrder(home)
    expect(liveOrder).toHaveLength(63)
    await rm(nodePaths(home).index, { recursive: true, force: true })
    const result = await reindexHome(nodePaths(home), 'default', clock)
    expect(result).toMatchObject({ records: 63, memories: 40 })
    expect(await dumpIndex(home)).toEqual(live)
    expect(await logOrder(home)).toEqual(liveOrder)
  })

  it('stops at a pack that is gone, or whose bytes changed, with LEDGER_CORRUPT and keeps the old index', async () => {
    const before = await queries(home)
    const packs = join(nodePaths(home).data, 'packs', 'default')
    const [name] = (await readdir(packs)).filter((n) => n.endsWith('.car'))
    const path = join(packs, name as string)
    const bytes = await readFile(path)
    const flipped = Buffer.from(bytes)
    flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 1
    await writeFile(path, flipped)
    const changed = await reindexHome(nodePaths(home), 'default', clock).catch((e: unknown) => e)
    expect(isIsnadError(changed, 'LEDGER_CORRUPT')).toBe(true)
    expect((changed as Error).message).toContain('does not hash to its CID')
    await rm(path)
    const gone = await reindexHome(nodePaths(home), 'default', clock).catch((e: unknown) => e)
    expect(isIsnadError(gone, 'LEDGER_CORRUPT')).toBe(true)
    expect((gone as Error).message).toContain('is missing')
    expect(existsSync(`${nodePaths(home).index}.rebuild`)).toBe(false)
    // The old index is kept, but a record is stored once (in its pack): with the pack gone, reading
    // one of its records is RECORD_LOCATION_INVALID, never another record.
    const without = await queries(home).catch((e: unknown) => e)
    expect(isIsnadError(without, 'RECORD_LOCATION_INVALID')).toBe(true)
    await writeFile(path, bytes) // a copy of the pack put back (content-addressed: any copy is the pack)
    expect(await queries(home)).toEqual(before)
  })

  it('refuses a pack whose record is not the one its event names, even in a pack whose blocks hash to their CIDs', async () => {
    const before = await queries(home)
    const shard = await shardOf(home)
    const line = await lineOf(shard, 0, 'memory.packed')
    await rewriteLine(shard, line, (text) => {
      const { hash: _hash, ...event } = JSON.parse(text) as LedgerEvent & { payload: PackPayload }
      const records = readPackCar(event.payload.pack, Buffer.from(readFileSync(packPath(nodePaths(home).data, 'default', event.payload.pack))))
      const signed = dagCbor.decode(records[3] as Uint8Array) as { record: { content: { summary: string } } }
      signed.record.content.summary += ' (changed after signing)'
      records[3] = dagCbor.encode(signed)
      const pack = buildPack(records)
      writeFileSync(packPath(nodePaths(home).data, 'default', pack.cid), pack.car)
      return JSON.stringify(withLineHash({ ...event, payload: packPayloadOf(pack, event.payload.records, 'import') }))
    })
    const err = await reindexHome(nodePaths(home), 'default', clock).catch((e: unknown) => e)
    expect(isIsnadError(err, 'CID_MISMATCH')).toBe(true)
    expect((err as Error).message).toMatch(/^memory stored as \S+ has CID \S+; nothing of the batch was stored$/)
    expect(existsSync(`${nodePaths(home).index}.rebuild`)).toBe(false)
    expect(await queries(home)).toEqual(before)
  })
})

/** A ledger of the layout before packs (one event per record, the record as JSON): still read as it is. */
describe('reindex through the reader thread, per-record events (the layout before packs)', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-reindex-legacy-'))
    await initHome(home)
    const memories = Array.from({ length: 40 }, (_, i) => createMemory(i % 3 === 0 ? carol : alice, {
      tags: [`t${i % 3}`], created_at: `2026-02-0${1 + (i % 5)}T10:00:${String(i).padStart(2, '0')}Z`
    }))
    const attestations = memories.filter((_, i) => i % 2 === 0).map((m) => createAttestation(bob, m.id, 'confirm'))
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default', clock })
    await ledger.append([...memories, ...attestations].map((r) => recordEventOf(r, 'import')))
    await ledger.close()
    await reindexHome(nodePaths(home), 'default', clock)
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('rebuilds the index from them', async () => {
    expect(await logOrder(home)).toHaveLength(60)
    expect((await queries(home) as unknown[][])[0]).toHaveLength(40)
  })

  it('stops at a corrupt line in the middle with the reader\'s error and keeps the old index', async () => {
    const before = await queries(home)
    const shard = await shardOf(home)
    const line = await lineOf(shard, 20)
    await rewriteLine(shard, line, (text) => text.replace('"summary":"', '"summary":"tampered '))
    const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
    const direct = await (async () => { for await (const _ of ledger.readEvents()) { /* up to the bad line */ } })().catch((err: unknown) => err)
    await ledger.close()
    expect(isIsnadError(direct, 'LEDGER_CORRUPT')).toBe(true)

    const err = await reindexHome(nodePaths(home), 'default', clock).catch((e: unknown) => e)
    expect(isIsnadError(err, 'LEDGER_CORRUPT')).toBe(true)
    expect((err as Error).message).toBe((direct as Error).message)
    expect((err as Error).message).toContain(`line ${line + 1} `)
    expect(existsSync(`${nodePaths(home).index}.rebuild`)).toBe(false)
    expect(await queries(home)).toEqual(before)
  })

  // Every record, memories included, is checked by the store as the rebuild writes it.
  it.each([
    ['memory', 'memory.captured', (record: Record<string, unknown>) => { (record.content as { summary: string }).summary += ' (changed after signing)' }],
    ['attestation', 'memory.attested', (record: Record<string, unknown>) => { record.attestation = 'partial' }]
  ])('refuses a record (%s) whose id is not its CID, even on a line whose hash verifies', async (kind, type, change) => {
    const before = await queries(home)
    const shard = await shardOf(home)
    const line = await lineOf(shard, 10, type)
    await rewriteLine(shard, line, (text) => {
      const { hash: _hash, ...event } = JSON.parse(text) as { hash: string, payload: { record: { record: Record<string, unknown> } } }
      change(event.payload.record.record)
      return JSON.stringify(withLineHash(event))
    })
    const err = await reindexHome(nodePaths(home), 'default', clock).catch((e: unknown) => e)
    expect(isIsnadError(err, 'CID_MISMATCH')).toBe(true)
    expect((err as Error).message).toMatch(new RegExp(`^${kind} stored as \\S+ has CID \\S+; nothing of the batch was stored$`))
    expect(existsSync(`${nodePaths(home).index}.rebuild`)).toBe(false)
    expect(await queries(home)).toEqual(before)
  })

  it('gives a record that fails its schema the error the record check throws', async () => {
    const shard = await shardOf(home)
    const line = await lineOf(shard, 5)
    let event: LedgerEvent | undefined
    await rewriteLine(shard, line, (text) => {
      const { hash: _hash, ...parsed } = JSON.parse(text) as LedgerEvent & { payload: { record: { record: Record<string, unknown> } } }
      parsed.payload.record.record.unexpected = true
      event = withLineHash(parsed)
      return JSON.stringify(event)
    })
    const expected = (() => { try { recordOfEvent(event as LedgerEvent) } catch (err) { return err as Error } })()
    const err = await reindexHome(nodePaths(home), 'default', clock).then(() => new Error('resolved'), (e: unknown) => e as Error)
    expect(expected?.name).toBe('ZodError')
    expect({ name: err.name, message: err.message }).toEqual({ name: expected?.name, message: expected?.message })
    expect(existsSync(`${nodePaths(home).index}.rebuild`)).toBe(false)
  })
})
