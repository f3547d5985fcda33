import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, describe, expect, it } from 'vitest'
import { createLevelRecordStore, indexLocationOf, type TrustEntry } from '../../../src/store/index.js'
import { indexedMemoryOf } from '../../../src/store/indexed-memory.js'
import { kindStatKey, linkKey, queryKeysOf } from '../../../src/store/level/key-layout.js'
import { scoreUnitsOf } from '../../../src/store/result-order.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

/*
 * The write plan builds the index keys piece by piece (one set of scopes per memory, counters by
 * precomputed keys): the keys on disk must stay exactly those of the layout in keys.ts (index
 * format 4), read here with a raw LevelDB handle after writes, a rescore and a reopen.
 */

const directories: string[] = []
afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})

const trust = (score: number): TrustEntry => ({ score, level: 'Attested', policy: 'isnad-v0.1', computed_at: '2026-02-05T18:00:00.000Z' })

async function rawKeys (location: string, sublevel: string): Promise<string[]> {
  const raw = new Level<string, string>(location, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  const keys = await raw.keys({ gte: `!${sublevel}!`, lt: `!${sublevel}"` }).all()
  await raw.close()
  return keys.map((key) => key.slice(sublevel.length + 2)).sort()
}

describe('LevelRecordStore index keys (layout 4)', () => {
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
    expect(await rawKeys(location, 'query')).toEqual([
      ...queryKeysOf(taggedMemory, scoreUnitsOf(0.7), tagged.id),
      ...queryKeysOf(plainMemory, scoreUnitsOf(0.3), plain.id)
    ].sort())
    expect(await rawKeys(location, 'links')).toEqual([
      linkKey('attestations', tagged.id, attestation.id),
      linkKey('attested_by', attestation.signed.record.witness, attestation.id)
    ].sort())
    expect(await rawKeys(location, 'stats')).toEqual([
      kindStatKey('attestation'), kindStatKey('memory'),
      't\x00alpha', 't\x00beta', `u\x00${author.did}`, `u\x00${createAgent(1).did}`, 'y\x00insight', `y\x00${plainMemory.type}`
    ].filter((key, i, all) => all.indexOf(key) === i).sort())
    expect(kindStatKey('memory')).toBe('k\x00memory')
  })
})
