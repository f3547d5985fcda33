import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, describe, expect, it } from 'vitest'
import { createLevelRecordStore, indexLocationOf, INDEX_FORMAT } from '../../../src/record-index/index.js'
import { idKey, LATIN1, uintKey } from '../../../src/record-index/level/binary-keys.js'
import type { RecordStore } from '../../../src/record-index/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { describeRecordStore, expectIsnadError, trustOf } from './record-store.suite.js'

const directories: string[] = []

/** A fresh data directory per store, with the index where a node keeps it. */
async function freshLocation (): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-store-'))
  directories.push(dir)
  return indexLocationOf(dir)
}

afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

describeRecordStore('LevelRecordStore', async () => {
  const location = await freshLocation()
  return { store: createLevelRecordStore({ location }), reopen: () => createLevelRecordStore({ location }) }
}, { propertyRuns: 40 })

describe('LevelRecordStore: locking', () => {
  it('refuses a second store on a directory in use with STORE_LOCKED', async () => {
    const location = await freshLocation()
    const first = createLevelRecordStore({ location })
    await first.open()
    const second = createLevelRecordStore({ location })
    const err: unknown = await second.open().then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'STORE_LOCKED' })
    expect(String((err as Error).message)).toContain('in use by another isnad process (a running daemon?)')
    await first.putMany([createMemory(createAgent(0))])
    await first.close()
    // Once the first lets go, the second opens and sees its data.
    await second.open()
    expect((await second.count()).memory).toBe(1)
    await second.close()
    await expectIsnadError(second.count(), 'STORE_CLOSED')
  })
})

describe('LevelRecordStore: reading its own bytes', () => {
  it('decodes without the schema, but refuses bytes that are not DAG-CBOR with DECODE_FAILED', async () => {
    const location = await freshLocation()
    const store = createLevelRecordStore({ location })
    const memory = createMemory(createAgent(0))
    await store.open()
    await store.putMany([memory])
    await store.close()
    // A damaged index directory: the record's value overwritten behind the store's back.
    const raw = new Level<string, Uint8Array>(location, { keyEncoding: LATIN1, valueEncoding: 'view' })
    await raw.put(`!r!${idKey(memory.id)}`, Uint8Array.of(0xff, 0x00))
    await raw.close()
    await store.open()
    await expectIsnadError(store.get(memory.id), 'DECODE_FAILED')
    await store.close()
  })
})

describe('LevelRecordStore: layout version', () => {
  it('stamps a new index with INDEX_FORMAT and refuses an index of another layout with INDEX_OUTDATED', async () => {
    const location = await freshLocation()
    const store = createLevelRecordStore({ location })
    await store.open()
    await store.putMany([createMemory(createAgent(0))])
    await store.close()
    const raw = new Level<string, string>(location, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
    expect(await raw.get('!meta!format')).toBe(INDEX_FORMAT)
    // The layout before versions: records, no format key.
    await raw.del('!meta!format')
    await raw.close()
    const err: unknown = await store.open().then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'INDEX_OUTDATED', details: { format: '1', expected: INDEX_FORMAT } })
    expect(String((err as Error).message)).toContain('isnad ledger reindex')
    // Refused, and the lock released: the directory can be opened (and replaced) by someone else.
    const again = new Level<string, string>(location)
    await again.open()
    await again.close()
  })

  it('stamps an empty index of the old layout (a home initialised before versions) instead of refusing it', async () => {
    const location = await freshLocation()
    const raw = new Level<string, string>(location)
    await raw.open()
    await raw.close()
    const store = createLevelRecordStore({ location })
    await store.open()
    expect(await store.count()).toMatchObject({ memory: 0 })
    await store.close()
  })
})

describe('LevelRecordStore: scope numbers (layout 7)', () => {
  it('forgets the numbers a refused batch gave, so queries by tag answer the same before and after a reopen', async () => {
    const location = await freshLocation()
    const [alice, bob] = [createAgent(0), createAgent(1)]
    const refused = createMemory(alice, { tags: ['lost'] })
    const kept = createMemory(bob, { tags: ['kept', 'ünï'] })
    const store = createLevelRecordStore({ location })
    await store.open()
    // Refused as a whole (trust for a memory stored nowhere), after its new scopes got numbers.
    await expectIsnadError(store.putMany([refused], new Map([[kept.id, trustOf(0.1)]])), 'NOT_FOUND')
    await store.putMany([kept], new Map([[kept.id, trustOf(0.4)]]))
    const answers = async (): Promise<unknown> => ({
      lost: (await store.query({ tags: ['lost'] })).items,
      kept: (await store.query({ tags: ['kept'] })).items.map((hit) => hit.id),
      unicode: (await store.query({ tags: ['ünï'], author: bob.did })).items.map((hit) => hit.id),
      author: (await store.query({ author: alice.did })).items
    })
    const before = await answers()
    expect(before).toEqual({ lost: [], kept: [kept.id], unicode: [kept.id], author: [] })
    await store.close()
    await store.open()
    expect(await answers()).toEqual(before)
    await store.putMany([refused])
    expect((await store.query({ tags: ['lost'], author: alice.did })).items.map((hit) => hit.id)).toEqual([refused.id])
    expect(await store.getTrust(kept.id)).toEqual(trustOf(0.4))
    await store.close()
  })
})

describe('LevelRecordStore: link keys keep 8 bytes of the memory id (layout 7)', () => {
  it('answers only the records linked to the memory asked about when another memory shares those bytes', async () => {
    const location = await freshLocation()
    const [alice, bob] = [createAgent(0), createAgent(1)]
    const a = createMemory(alice)
    const b = createMemory(alice, { supersedes: a.id })
    const c = createMemory(alice, { supersedes: b.id })
    const onA = createAttestation(bob, a.id)
    const onB = createAttestation(bob, b.id)
    const store = createLevelRecordStore({ location })
    await store.open()
    await store.putMany([a, b, c, onA, onB])
    await store.close()
    // What two memories sharing the first 8 bytes of their key would write: b's attestation and c
    // (b's successor) listed under a's part of the key.
    const raw = new Level<string, string>(location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
    await raw.put(`!l!a${idKey(a.id).slice(0, 8)}${idKey(onB.id)}`, '')
    await raw.put(`!l!s${idKey(a.id).slice(0, 8)}${idKey(c.id)}`, '')
    await raw.close()
    await store.open()
    try {
      expect((await store.attestationsFor(a.id)).map((r) => r.id)).toEqual([onA.id])
      expect((await store.attestationsFor(b.id)).map((r) => r.id)).toEqual([onB.id])
      expect(await store.supersededBy(a.id)).toEqual([b.id])
      expect(await store.supersededBy(b.id)).toEqual([c.id])
      expect(await store.supersededBy(c.id)).toEqual([])
    } finally {
      await store.close()
    }
  })
})

describe('LevelRecordStore: what its write queue remembers between batches', () => {
  it('keeps counters, trust and query keys equal to what is on disk, across a refused batch and a reopen', async () => {
    const location = await freshLocation()
    const [alice, bob, carol] = [createAgent(0), createAgent(1), createAgent(2)]
    const memory = createMemory(alice, { tags: ['rust', 'ffi'] })
    const unknown = createMemory(bob)
    const store = createLevelRecordStore({ location })
    await store.open()
    await store.putMany([memory], new Map([[memory.id, trustOf(0.3)]]))
    await store.putMany([createAttestation(bob, memory.id)], new Map([[memory.id, trustOf(0.5)]]))
    // Refused as a whole (no trust for a memory stored nowhere): nothing of it may linger in memory.
    await expectIsnadError(store.putMany([createAttestation(carol, memory.id)], new Map([[memory.id, trustOf(0.9)], [unknown.id, trustOf(0.1)]])), 'NOT_FOUND')
    await store.setTrust(memory.id, trustOf(0.7))
    const answers = async (s: RecordStore): Promise<unknown> => ({
      count: await s.count(),
      trust: await s.getTrust(memory.id),
      above: (await s.query({ tags: ['ffi'], minTrust: 0.6 })).items,
      author: (await s.query({ author: alice.did })).items
    })
    const before = await answers(store)
    expect(before).toMatchObject({ count: { memory: 1, attestation: 1 }, trust: trustOf(0.7), above: [{ id: memory.id, trust: 0.7 }] })
    await store.close()
    // On disk: one query key per scope, all at the last score (each rescore deleted the keys of the
    // score before it), and the counters the store answered with.
    const raw = new Level<string, string>(location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
    const queryKeys = await raw.keys({ gte: '!q!', lt: '!q"' }).all()
    expect(queryKeys).toHaveLength(5) // all, author, type, two tags
    for (const key of queryKeys) expect(key.slice(4, 6), key).toBe(uintKey(3000, 2)) // `!q!`, a scope number < 128, 10000 − 0.7 × 10000
    expect(await raw.getMany(['!s!k\x00memory', '!s!k\x00attestation', '!s!t\x00ffi'])).toEqual(['1', '1', '1'])
    await raw.close()
    await store.open()
    expect(await answers(store)).toEqual(before)
    // A batch after the reopen re-keys from what is on disk.
    await store.putMany([createAttestation(carol, memory.id)], new Map([[memory.id, trustOf(0.4)]]))
    expect((await store.query({ tags: ['rust'], minTrust: 0.41 })).items).toEqual([])
    expect((await store.query({ tags: ['rust'] })).items).toMatchObject([{ id: memory.id, trust: 0.4 }])
    expect(await store.count()).toMatchObject({ memory: 1, attestation: 2 })
    await store.close()
  })
})
