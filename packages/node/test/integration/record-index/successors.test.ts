import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { Level } from 'level'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createLevelRecordStore, createMemoryRecordStore, indexLocationOf, type RecordStore } from '../../../src/record-index/index.js'
import { WriteBatch } from '../../../src/record-index/level/sublevels.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { expectIsnadError, trustOf } from './record-store.suite.js'

/**
 * supersededBy on the LevelDB store answers from the set of memories that have a successor, kept
 * in memory (level-record-store.ts): these pin that it answers what the `successors` links say
 * whatever the order of arrival, across reopen and failed writes, and that a memory without a
 * successor costs no LevelDB iterator.
 */

const directories: string[] = []

async function freshLocation (): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-successors-'))
  directories.push(dir)
  return indexLocationOf(dir)
}

afterAll(async () => {
  await Promise.all(directories.map(async (dir) => { await rm(dir, { recursive: true, force: true }) }))
})
afterEach(() => { vi.restoreAllMocks() })

const alice = createAgent(0)
const bob = createAgent(1)

/** Counts the LevelDB iterators opened for keys (every sublevel's `keys` is AbstractLevel's). */
function countKeyIterators (): { readonly calls: number } {
  let proto: object | null = Level.prototype
  while (proto !== null && !Object.hasOwn(proto, 'keys')) proto = Object.getPrototypeOf(proto) as object | null
  if (proto === null) throw new Error('no keys() on the Level prototype chain')
  const spy = vi.spyOn(proto as { keys: () => unknown }, 'keys')
  return { get calls () { return spy.mock.calls.length } }
}

describe('LevelRecordStore: supersededBy from the set of superseded memories', () => {
  it('answers successors stored before their target, after a reopen, and opens no iterator for the rest', async () => {
    const location = await freshLocation()
    let store: RecordStore = createLevelRecordStore({ location })
    await store.open()
    const target = createMemory(alice)
    const plain = createMemory(alice)
    const early = createMemory(bob, { supersedes: target.id, type: 'correction' })
    // The correction arrives first: its target is not stored yet.
    await store.putMany([early, plain])
    expect(await store.supersededBy(target.id)).toEqual([early.id])
    await store.putMany([target])
    const late = createMemory(alice, { supersedes: target.id })
    await store.putMany([late])
    expect(await store.supersededBy(target.id)).toEqual([early.id, late.id].sort())
    await store.close()

    // A reopened store reads the set from the links: same answers, and none for the others.
    store = createLevelRecordStore({ location })
    await store.open()
    const iterators = countKeyIterators()
    expect(await store.supersededBy(plain.id)).toEqual([])
    expect(await store.supersededBy(early.id)).toEqual([])
    expect(await store.supersededBy(createMemory(alice).id)).toEqual([])
    expect(iterators.calls).toBe(0)
    expect(await store.supersededBy(target.id)).toEqual([early.id, late.id].sort())
    expect(iterators.calls).toBeGreaterThan(0)
    await store.close()
    await expectIsnadError(store.supersededBy(target.id), 'STORE_CLOSED')
  })

  it('stays right across a refused batch and a batch whose commit fails', async () => {
    const store = createLevelRecordStore({ location: await freshLocation() })
    await store.open()
    const target = createMemory(alice)
    await store.putMany([target])
    const refused = createMemory(bob, { supersedes: target.id })
    // Refused inside the write queue (a trust entry for a memory stored nowhere): nothing stored.
    await expectIsnadError(store.putMany([refused], new Map([[createMemory(bob).id, trustOf(0.5)]])), 'NOT_FOUND')
    expect(await store.supersededBy(target.id)).toEqual([])
    // A commit that fails (a full disk, say): the links are not written, and nothing claims them.
    const other = createMemory(alice)
    const failing = createMemory(bob, { supersedes: other.id })
    vi.spyOn(WriteBatch.prototype, 'commit').mockRejectedValueOnce(new Error('disk full'))
    await expect(store.putMany([other, failing])).rejects.toThrow('disk full')
    expect(await store.supersededBy(other.id)).toEqual([])
    // The same records stored afterwards are answered.
    await store.putMany([other, failing, refused])
    expect(await store.supersededBy(other.id)).toEqual([failing.id])
    expect(await store.supersededBy(target.id)).toEqual([refused.id])
    await store.close()
  })

  it('answers as the in-memory store does for any order of batches and reopens (property)', async () => {
    const pool = Array.from({ length: 6 }, () => createMemory(alice))
    // Each successor corrects one memory of the pool (or another successor).
    const successors = Array.from({ length: 6 }, (_, i) => createMemory(i % 2 === 0 ? alice : bob, { supersedes: pool[i % 4]?.id }))
    successors.push(createMemory(bob, { supersedes: successors[0]?.id }))
    const all = [...pool, ...successors]
    const step = fc.oneof(
      fc.subarray(all, { minLength: 1, maxLength: 4 }).map((batch) => ({ batch })),
      fc.constant({ reopen: true as const })
    )
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
      const location = await freshLocation()
      let level: RecordStore = createLevelRecordStore({ location })
      const oracle = createMemoryRecordStore()
      await Promise.all([level.open(), oracle.open()])
      try {
        for (const next of steps) {
          if ('reopen' in next) {
            await level.close()
            level = createLevelRecordStore({ location })
            await level.open()
          } else {
            await Promise.all([level.putMany(next.batch), oracle.putMany(next.batch)])
          }
          for (const { id } of all) expect(await level.supersededBy(id), id).toEqual(await oracle.supersededBy(id))
        }
      } finally {
        await Promise.all([level.close(), oracle.close()])
      }
    }), { numRuns: 15 })
  })
})
