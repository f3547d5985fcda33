import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLevelStateStore, createMemoryStateStore, type AnchorStateStore, type StoredState } from '../../../src/anchor/index.js'

const MEMORY_A = 'bafyreimemorya'
const MEMORY_B = 'bafyreimemoryb'
const MEMORY_C = 'bafyreimemoryc'

function stateOf (state: StoredState['state']): StoredState {
  return { state, reason: `the anchor was ${state}`, checked_at: '2026-11-22T04:00:00.000Z' }
}

/** The same answers from the LevelDB store (also after a reopen) as from the in-memory one. */
describe('anchor state stores: hasVerified', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-anchor-states-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  async function fill (store: AnchorStateStore): Promise<void> {
    await store.put('anchor-a1', MEMORY_A, stateOf('mismatch'))
    await store.put('anchor-a2', MEMORY_A, stateOf('verified'))
    await store.put('anchor-b1', MEMORY_B, stateOf('unreachable'))
  }

  async function answers (store: AnchorStateStore): Promise<boolean[]> {
    return await Promise.all([MEMORY_A, MEMORY_B, MEMORY_C].map(async (m) => await store.hasVerified(m)))
  }

  it('answers per memory, and a later check that changes the state changes the answer', async () => {
    const memory = createMemoryStateStore()
    const level = createLevelStateStore(join(dir, 'states'))
    await level.open()
    try {
      for (const store of [memory, level]) await fill(store)
      expect(await answers(memory)).toEqual([true, false, false])
      expect(await answers(level)).toEqual([true, false, false])
      for (const store of [memory, level]) {
        await store.put('anchor-a2', MEMORY_A, stateOf('mismatch'))
        await store.put('anchor-b1', MEMORY_B, stateOf('verified'))
      }
      expect(await answers(memory)).toEqual([false, true, false])
      expect(await answers(level)).toEqual([false, true, false])
    } finally {
      await level.close()
    }
  })

  it('knows the anchored memories again after a reopen', async () => {
    const location = join(dir, 'states')
    const first = createLevelStateStore(location)
    await first.open()
    await fill(first)
    await first.close()
    const second = createLevelStateStore(location)
    await second.open()
    try {
      expect(await answers(second)).toEqual([true, false, false])
      expect(await second.get('anchor-a2')).toEqual(stateOf('verified'))
    } finally {
      await second.close()
    }
  })
})
