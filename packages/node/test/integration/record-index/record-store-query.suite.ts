import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, type MemoryQuery, type QueryHit, type RecordStore } from '../../../src/record-index/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { expectIsnadError, trustOf, type StoreFactory, type SuiteOptions } from './record-store.suite.js'
import { buildStore, oracle, queryArbitrary, storeArbitrary, type StoreSpec } from './query-oracle.js'

const alice = createAgent(0)
const bob = createAgent(1)

/** Every page of a query, following `next` to the end. */
export async function allPages (store: RecordStore, query: MemoryQuery): Promise<{ hits: QueryHit[], sizes: number[] }> {
  const hits: QueryHit[] = []
  const sizes: number[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await store.query(cursor === undefined ? query : { ...query, cursor })
    hits.push(...page.items)
    sizes.push(page.items.length)
    if (page.next === undefined) return { hits, sizes }
    cursor = page.next
  }
  throw new Error('pagination did not end')
}

export function describeRecordStoreQueries (name: string, factory: StoreFactory, options: SuiteOptions): void {
  describe(`${name}: query`, () => {
    let store: RecordStore
    beforeEach(async () => {
      store = (await factory()).store
      await store.open()
    })
    afterEach(async () => { await store.close() })

    it('filters by tags (AND), type, author, since (inclusive) and until (exclusive), and orders results', async () => {
      const m = [
        createMemory(alice, { tags: ['rust', 'ffi'], type: 'fact', created_at: '2026-01-01T00:00:00Z' }),
        createMemory(alice, { tags: ['rust'], type: 'decision', created_at: '2026-01-02T00:00:00Z' }),
        createMemory(bob, { tags: ['rust', 'ffi', 'unsafe'], type: 'fact', created_at: '2026-01-03T00:00:00.500Z' }),
        createMemory(bob, { tags: ['go'], type: 'insight', created_at: '2026-01-02T00:00:00.000Z' })
      ]
      const trust = new Map([[m[0]?.id as string, trustOf(0.9)], [m[1]?.id as string, trustOf(0.5)], [m[2]?.id as string, trustOf(0.5)]])
      await store.putMany(m, trust)
      const ids = async (query: MemoryQuery): Promise<number[]> =>
        (await store.query(query)).items.map((hit) => m.findIndex((x) => x.id === hit.id))
      expect(await ids({})).toEqual([0, 2, 1, 3])
      expect(await ids({ tags: ['rust'] })).toEqual([0, 2, 1])
      expect(await ids({ tags: ['rust', 'ffi'] })).toEqual([0, 2])
      expect(await ids({ tags: ['ffi', 'go'] })).toEqual([])
      expect(await ids({ tags: ['nothing'] })).toEqual([])
      expect(await ids({ type: 'fact' })).toEqual([0, 2])
      expect(await ids({ author: bob.did })).toEqual([2, 3])
      expect(await ids({ author: bob.did, type: 'fact', tags: ['unsafe'] })).toEqual([2])
      expect(await ids({ minTrust: 0.5 })).toEqual([0, 2, 1])
      expect(await ids({ minTrust: 0.51 })).toEqual([0])
      expect(await ids({ minTrust: 1 })).toEqual([])
      expect(await ids({ since: '2026-01-02T00:00:00Z' })).toEqual([2, 1, 3])
      expect(await ids({ until: '2026-01-02T00:00:00Z' })).toEqual([0])
      expect(await ids({ since: '2026-01-02T00:00:00Z', until: '2026-01-03T00:00:00.500Z', tags: ['rust'] })).toEqual([1])
      const page = await store.query({ tags: ['rust'], minTrust: 0.5 })
      expect(page.items[0]).toEqual({ id: m[0]?.id, trust: 0.9, created_at: '2026-01-01T00:00:00Z' })
      expect(page.next).toBeUndefined()
    })

    it('pages with an opaque cursor, defaulting to 50 per page', async () => {
      const memories = Array.from({ length: 120 }, (_, i) =>
        createMemory(alice, { tags: ['many'], created_at: `2026-01-01T00:${String(i % 60).padStart(2, '0')}:00Z` }))
      await store.putMany(memories)
      const first = await store.query({ tags: ['many'] })
      expect(first.items).toHaveLength(DEFAULT_QUERY_LIMIT)
      expect(typeof first.next).toBe('string')
      const { hits, sizes } = await allPages(store, { tags: ['many'], limit: 7 })
      expect(new Set(hits.map((h) => h.id)).size).toBe(120)
      expect(sizes.slice(0, -1).every((size) => size === 7)).toBe(true)
      expect((await allPages(store, { tags: ['many'], limit: 60 })).sizes).toEqual([60, 60])
    })

    it('refuses bad limits, cursors and bounds with USAGE', async () => {
      await expectIsnadError(store.query({ limit: MAX_QUERY_LIMIT + 1 }), 'USAGE')
      await expectIsnadError(store.query({ limit: 0 }), 'USAGE')
      await expectIsnadError(store.query({ limit: 2.5 }), 'USAGE')
      await expectIsnadError(store.query({ minTrust: 2 }), 'USAGE')
      await expectIsnadError(store.query({ cursor: 'not-a-cursor' }), 'USAGE')
      await expectIsnadError(store.query({ since: 'yesterday' }), 'USAGE')
      expect((await store.query({ limit: MAX_QUERY_LIMIT })).items).toEqual([])
    })

    it('property: concatenated pages equal a naive filter and sort over all memories', async () => {
      await fc.assert(fc.asyncProperty(storeArbitrary, fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }),
        async (specs: StoreSpec, queries) => {
          const instance = (await factory()).store
          await instance.open()
          try {
            const model = await buildStore(instance, specs)
            for (const query of queries) {
              const { hits, sizes } = await allPages(instance, query)
              expect(hits).toEqual(oracle(model, query))
              const limit = query.limit ?? DEFAULT_QUERY_LIMIT
              expect(sizes.slice(0, -1).every((size) => size === limit)).toBe(true)
              expect(sizes.length === 1 || (sizes.at(-1) ?? 0) > 0).toBe(true)
            }
          } finally {
            await instance.close()
          }
        }), { numRuns: options.propertyRuns })
    })
  })
}
