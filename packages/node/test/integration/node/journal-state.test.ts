import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Level } from 'level'
import { MerkleLog, RECORD_LEAF_CODEC, computeRoot, createLevelNodeStore, createMemoryNodeStore, hashLeaf, leafDataOfCid, proveConsistency, proveInclusion } from '../../../src/merkle/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { LATIN1 } from '../../../src/record-index/index.js'
import { nativeMerkleHasher } from '../../../src/node/journal/merkle-hasher.js'
import { createAgent, createMemory } from '../../fixtures/records.js'

/** The journal's record ids in log order (the Merkle log's own leaves), and the node's OpenSSL hashing of the log. */

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-journal-state-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('JournalState leaf positions', () => {
  it('answers recordsSince from any cursor, across appends of any size, duplicates skipped', async () => {
    const author = createAgent(1)
    const ids = Array.from({ length: 2600 }, (_, i) => createMemory(author, { summary: `memory ${i}` }).id)
    const state = await JournalState.open(join(dir, 'journal'))
    try {
      // A few ids per append, a long append, and a repeat of ids already in the log.
      await state.applyRecords(ids.slice(0, 3))
      await state.applyRecords([ids[1] as string, ...ids.slice(3, 2500), ids[0] as string])
      await state.applyRecords(ids.slice(2490))
      expect(state.merkle.size).toBe(ids.length)
      for (const [cursor, limit] of [[0, 5], [2, 3], [1000, 50], [1020, 10], [1024, 1], [2047, 1030], [2590, 100], [2600, 5], [3000, 1]] as const) {
        const expected = ids.slice(cursor, cursor + limit)
        expect(await state.recordsSince(cursor, limit), `${cursor}+${limit}`).toEqual({ ids: expected, next: cursor + expected.length })
      }
    } finally {
      await state.close()
    }
  })
})

describe('JournalState after a crash between the Merkle append and the batch after it', () => {
  it('serves every leaf the log holds, and replay applying their records again adds none twice', async () => {
    const author = createAgent(2)
    const ids = Array.from({ length: 6 }, (_, i) => createMemory(author, { summary: `crash ${i}` }).id)
    const location = join(dir, 'journal')
    const first = await JournalState.open(location)
    await first.applyRecords(ids.slice(0, 2))
    // The crash: the log got the next leaves, the batch after it (requests, keys) never ran.
    await first.merkle.append(ids.slice(2, 5).map(leafDataOfCid))
    await first.close()
    const second = await JournalState.open(location)
    try {
      // The log is where the ids are: the leaves it holds are served at once.
      expect(await second.recordsSince(0, 10)).toEqual({ ids: ids.slice(0, 5), next: 5 })
      // Replay applies every record beyond indexed_lc (some already positioned), then new ones arrive.
      await second.applyRecords([ids[1] as string, ...ids.slice(2, 5)])
      await second.applyRecords(ids.slice(5))
      expect(second.merkle.size).toBe(6)
      expect(await second.recordsSince(0, 10)).toEqual({ ids, next: 6 })
      expect(await second.recordsSince(3, 10)).toEqual({ ids: ids.slice(3), next: 6 })
    } finally {
      await second.close()
    }
  })
})

describe('nativeMerkleHasher', () => {
  it('gives a MerkleLog the same leaf hashes, roots and proofs as the pure functions', async () => {
    const leaves = Array.from({ length: 37 }, (_, i) => Uint8Array.of(i, i * 7 & 0xff, 0, 1))
    const hashes = leaves.map(hashLeaf)
    const log = await MerkleLog.open({ store: createMemoryNodeStore(), hasher: nativeMerkleHasher })
    await log.append(leaves.slice(0, 20))
    await log.append(leaves.slice(20))
    expect(leaves.map(nativeMerkleHasher.leaf)).toEqual(hashes)
    for (const size of [1, 2, 3, 16, 20, 21, 37]) {
      expect(await log.root(size)).toEqual(computeRoot(hashes, size))
      expect((await log.proveInclusion(size - 1, size)).path).toEqual(proveInclusion(hashes, size - 1, size).path)
      expect((await log.proveConsistency(Math.ceil(size / 3), size)).path).toEqual(proveConsistency(hashes, Math.ceil(size / 3), size).path)
    }
  })
})

describe('JournalState writes through the root database', () => {
  it('puts the same bytes on disk as the sublevels themselves would', async () => {
    const author = createAgent(3)
    const ids = Array.from({ length: 40 }, (_, i) => createMemory(author, { summary: `root ${i}` }).id)
    const events = ids.map((id, i) => ({ idempotency_key: `memory.captured:${id}`, event_id: `evt_${String(i).padStart(26, 'a')}` }))
    const location = join(dir, 'journal')
    const state = await JournalState.open(location)
    await state.applyRecords(ids.slice(0, 17), { events: events.slice(0, 17) })
    await state.applyRecords(ids.slice(17), { events: events.slice(17) })
    await state.recordKeys([{ idempotency_key: 'k', event_id: 'evt_k' }])
    await state.setIndexedLc(41)
    await state.close()

    // The same content written through the sublevels: the Merkle log over createLevelNodeStore.
    const reference = new Level<string, string>(join(dir, 'reference'), { valueEncoding: 'utf8' })
    const log = await MerkleLog.open({ store: createLevelNodeStore(reference.sublevel<string, Uint8Array>('m', { keyEncoding: LATIN1, valueEncoding: 'view' })), hasher: nativeMerkleHasher, leafCodec: RECORD_LEAF_CODEC })
    await log.append(ids.slice(0, 17).map(leafDataOfCid))
    await log.append(ids.slice(17).map(leafDataOfCid))
    const keys = reference.sublevel<string, string>('keys', { valueEncoding: 'utf8' })
    await reference.batch([
      ...[...events, { idempotency_key: 'k', event_id: 'evt_k' }].map((e) => ({ type: 'put' as const, sublevel: keys, key: e.idempotency_key, value: e.event_id })),
      { type: 'put', sublevel: reference.sublevel<string, string>('meta', { valueEncoding: 'utf8' }), key: 'indexed_lc', value: '41' }
    ])
    const expected = await reference.iterator({ keyEncoding: 'view', valueEncoding: 'view' }).all()
    await reference.close()
    const written = new Level<string, string>(location, { valueEncoding: 'utf8' })
    const actual = await written.iterator({ keyEncoding: 'view', valueEncoding: 'view' }).all()
    await written.close()
    expect(actual.length).toBe(2 * ids.length + 1 + events.length + 1 + 1)
    expect(actual).toEqual(expected)
  })
})
