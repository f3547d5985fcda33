import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, describe, expect, it } from 'vitest'
import { createLevelRecordStore, indexLocationOf, type TrustEntry } from '../../../src/record-index/index.js'
import { indexedMemoryOf } from '../../../src/record-index/indexed-memory.js'
import { idKey, LATIN1, uintKey } from '../../../src/record-index/level/binary-keys.js'
import { kindStatKey, linkKey, queryKeysOf } from '../../../src/record-index/level/key-layout.js'
import { scoreUnitsOf } from '../../../src/record-index/result-order.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The write plan builds the index keys piece by piece (one set of scopes per memory, counters by
 * precomputed keys): the keys on disk must stay exactly those of the layout in key-layout.ts (index
 * format 7: binary keys), read here with a raw LevelDB handle after writes, a rescore and a reopen.
 */

const directories: string[] = []
afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

const trust = (score: number): TrustEntry => ({ score, level: 'Attested', policy: 'isnad-v0.1', computed_at: '2026-02-05T18:00:00.000Z' })

async function rawEntries (location: string, sublevel: string): Promise<Map<string, string>> {
  const raw = new Level<string, string>(location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
  const entries = await raw.iterator({ gte: `!${sublevel}!`, lt: `!${sublevel}"` }).all()
  await raw.close()
  return new Map(entries.map(([key, value]) => [key.slice(sublevel.length + 2), value]))
}

/** The index's scope numbers (the `d` sublevel), as a function for queryKeysOf. */
async function scopeNumbers (location: string): Promise<(scope: string) => number> {
  const numbers = new Map([...await rawEntries(location, 'd')].map(([n, scope]) => [scope, Number(n)]))
  numbers.set('a', 0)
  return (scope) => {
    const n = numbers.get(scope)
    if (n === undefined) throw new Error(`scope ${scope} has no number`)
    return n
  }
}

async function rawKeys (location: string, sublevel: string): Promise<string[]> {
  const raw = new Level<string, string>(location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
  const keys = await raw.keys({ gte: `!${sublevel}!`, lt: `!${sublevel}"` }).all()
  await raw.close()
  return keys.map((key) => key.slice(sublevel.length + 2)).sort()
}

describe('LevelRecordStore index keys (layout 7)', () => {
  it('writes the query, link and counter keys of keys.ts, and re-keys a rescored memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-keys-'))
    directories.push(dir)
    const location = indexLocationOf(dir)
    const author = createAgent(0)
    const tagged = createMemory(author, { tags: ['alpha', 'beta'], type: 'insight' })
    const plain = createMemory(createAgent(1))
    const attestation = createAttestation(createAgent(2), tagged.id)
    const store = createLevelRecordStore({ location })
    await store.open()
    await store.putMany([tagged, plain, attestation], new Map([[tagged.id, trust(0.5)]]))
    await store.setTrust(plain.id, trust(0.3))
    await store.setTrust(tagged.id, trust(0.7))
    await store.close()

    const taggedMemory = indexedMemoryOf(tagged.signed.record)
    const plainMemory = indexedMemoryOf(plain.signed.record)
    const numberOf = await scopeNumbers(location)
    // Each scope (and trust level and policy) spelled out once, numbered from 1 in the order the batches first used them.
    expect([...(await rawEntries(location, 'd')).values()]).toEqual([
      `u\x00${author.did}`, 'y\x00insight', 't\x00alpha', 't\x00beta', 'L\x00Attested', 'P\x00isnad-v0.1', `u\x00${createAgent(1).did}`, `y\x00${plainMemory.type}`
    ].filter((scope, i, all) => all.indexOf(scope) === i))
    expect(await rawKeys(location, 'q')).toEqual([
      ...queryKeysOf(taggedMemory, scoreUnitsOf(0.7), tagged.id, numberOf),
      ...queryKeysOf(plainMemory, scoreUnitsOf(0.3), plain.id, numberOf)
    ].sort())
    // One link per attestation (its memory's): no key by witness.
    expect(await rawKeys(location, 'l')).toEqual([linkKey('attestations', tagged.id, attestation.id)])
    expect(linkKey('attestations', tagged.id, attestation.id)).toBe(`a${idKey(tagged.id).slice(0, 8)}${idKey(attestation.id)}`)
    expect(await rawKeys(location, 's')).toEqual([
      kindStatKey('attestation'), kindStatKey('memory'),
      't\x00alpha', 't\x00beta', `u\x00${author.did}`, `u\x00${createAgent(1).did}`, 'y\x00insight', `y\x00${plainMemory.type}`
    ].filter((key, i, all) => all.indexOf(key) === i).sort())
    expect(kindStatKey('memory')).toBe('k\x00memory')
  })

  it('leaves a query key empty when the position says created_at, and keeps it as written otherwise', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-keys-'))
    directories.push(dir)
    const location = indexLocationOf(dir)
    const iso = createMemory(createAgent(3), { created_at: '2026-02-05T16:00:00.250Z', tags: ['t'] })
    const seconds = createMemory(createAgent(4), { created_at: '2026-02-05T15:00:00Z', tags: ['t'] })
    const store = createLevelRecordStore({ location })
    await store.open()
    await store.putMany([iso, seconds])
    await store.close()
    const values = await rawEntries(location, 'q')
    expect(values.size).toBe(8)
    for (const [key, value] of values) expect(value).toBe(key.endsWith(idKey(iso.id)) ? '' : '2026-02-05T15:00:00Z')

    // A key written before the rule (created_at always spelled out) is read as it is.
    const [isoKey] = queryKeysOf(indexedMemoryOf(iso.signed.record), 0, iso.id, await scopeNumbers(location)).slice(-1)
    const raw = new Level<string, string>(location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
    await raw.put(`!q!${isoKey ?? ''}`, '2026-02-05T16:00:00.250Z')
    await raw.close()
    const reopened = createLevelRecordStore({ location })
    await reopened.open()
    try {
      const byId = async (tags?: string[]): Promise<Map<string, string>> => new Map((await reopened.query({ limit: 10, ...(tags === undefined ? {} : { tags }) })).items.map((hit) => [hit.id, hit.created_at]))
      for (const hits of [await byId(), await byId(['t'])]) {
        expect(hits.get(iso.id)).toBe('2026-02-05T16:00:00.250Z')
        expect(hits.get(seconds.id)).toBe('2026-02-05T15:00:00Z')
      }
    } finally {
      await reopened.close()
    }
  })

  it('keeps a memory entry a batch re-scores to the same score, level and policy, and rewrites it when one moves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-keys-'))
    directories.push(dir)
    const location = indexLocationOf(dir)
    const memory = createMemory(createAgent(5))
    const later = (score: number, at: string, level = 'Attested'): TrustEntry => ({ score, level, policy: 'isnad-v0.1', computed_at: at })
    const store = createLevelRecordStore({ location })
    await store.open()
    try {
      await store.putMany([memory], new Map([[memory.id, later(0.2, '2026-02-05T18:00:00.000Z')]]))
      await store.putMany([createAttestation(createAgent(6), memory.id)], new Map([[memory.id, later(0.2, '2026-02-05T19:00:00.000Z')]]))
      expect((await store.getTrust(memory.id))?.computed_at).toBe('2026-02-05T18:00:00.000Z')
      await store.putMany([createAttestation(createAgent(7), memory.id)], new Map([[memory.id, later(0.2, '2026-02-05T20:00:00.000Z', 'Unverified')]]))
      expect(await store.getTrust(memory.id)).toEqual(later(0.2, '2026-02-05T20:00:00.000Z', 'Unverified'))
      await store.putMany([createAttestation(createAgent(8), memory.id)], new Map([[memory.id, later(0.4, '2026-02-05T21:00:00.000Z', 'Unverified')]]))
      expect(await store.getTrust(memory.id)).toEqual(later(0.4, '2026-02-05T21:00:00.000Z', 'Unverified'))
    } finally {
      await store.close()
    }
    expect((await rawKeys(location, 'q')).every((key) => key.slice(1, 3) === uintKey(10000 - 4000, 2))).toBe(true) // scope numbers < 128: one byte
  })
})
