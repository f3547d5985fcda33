import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import {
  DEFAULT_HASHER, MerkleLog, RECORD_LEAF_CODEC, computeRoot, leafDataOfCid, createMemoryNodeStore, hashLeaf, proveConsistency, proveInclusion, verifyInclusion,
  type MerkleHasher, type MerkleNodeStore
} from '../../../src/merkle/index.js'
import { columnKey } from '../../../src/merkle/log-keys.js'
import { hex } from './reference.js'

/** MerkleLog over the in-memory store: equal to the pure functions, idempotent, O(log n) reads. */

const leaf = (i: number, salt = 0): Uint8Array => Uint8Array.of(salt, i & 0xff, (i >> 8) & 0xff, i >> 16)

/** A store that counts the keys read, and can be told to fail its next batch. */
function countingStore (): MerkleNodeStore & { reads: number, failNext: boolean, inner: ReturnType<typeof createMemoryNodeStore> } {
  const inner = createMemoryNodeStore()
  const store = {
    inner,
    reads: 0,
    failNext: false,
    get: async (key: string) => { store.reads++; return await inner.get(key) },
    getMany: async (keys: string[]) => { store.reads += keys.length; return await inner.getMany?.(keys) ?? [] },
    batch: async (puts: ReadonlyArray<{ key: string, value: Uint8Array }>) => {
      if (store.failNext) { store.failNext = false; throw new Error('disk full') }
      await inner.batch(puts)
    }
  }
  return store
}

async function codeOf (run: Promise<unknown>): Promise<string> {
  return await run.then(() => 'resolved', (err: unknown) => isIsnadError(err) ? err.code : String(err))
}

describe('MerkleLog', () => {
  it('gives the roots and proofs of the pure functions for every size, appended in random batches', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 12 }), async (batches) => {
      const log = await MerkleLog.open({ store: createMemoryNodeStore() })
      const hashes: Uint8Array[] = []
      for (const count of batches) {
        const data = Array.from({ length: count }, (_, k) => leaf(hashes.length + k))
        const results = await log.append(data)
        expect(results).toEqual(data.map((_, k) => ({ index: hashes.length + k, added: true })))
        hashes.push(...data.map(hashLeaf))
        expect(log.size).toBe(hashes.length)
      }
      const n = hashes.length
      for (let size = 0; size <= n; size++) {
        expect(hex(await log.root(size)), `root ${size}`).toBe(hex(computeRoot(hashes, size)))
        for (let i = 0; i < size; i++) {
          expect((await log.proveInclusion(i, size)).path.map(hex), `inclusion ${i}@${size}`).toEqual(proveInclusion(hashes, i, size).path.map(hex))
        }
        for (let m = 0; m <= size; m++) {
          expect((await log.proveConsistency(m, size)).path.map(hex), `consistency ${m}→${size}`).toEqual(proveConsistency(hashes, m, size).path.map(hex))
        }
      }
    }), { numRuns: 40 })
  })

  it('appends idempotently by leaf data, within a batch and across batches and reopenings', async () => {
    const store = createMemoryNodeStore()
    const log = await MerkleLog.open({ store })
    expect(await log.append([leaf(0), leaf(1), leaf(0)])).toEqual([{ index: 0, added: true }, { index: 1, added: true }, { index: 0, added: false }])
    expect(await log.append([leaf(1), leaf(2)])).toEqual([{ index: 1, added: false }, { index: 2, added: true }])
    const root = await log.root()
    const entries = store.entries
    expect(await log.append([leaf(2), leaf(0)])).toEqual([{ index: 2, added: false }, { index: 0, added: false }])
    expect(store.entries).toBe(entries) // nothing written
    const reopened = await MerkleLog.open({ store })
    expect(reopened.size).toBe(3)
    expect(hex(await reopened.root())).toBe(hex(root))
    expect(await reopened.append([leaf(1), leaf(3)])).toEqual([{ index: 1, added: false }, { index: 3, added: true }])
    expect(await reopened.indexOf(leaf(3))).toBe(3)
    expect(await reopened.indexOf(leaf(4))).toBeUndefined()
  })

  it('proves a leaf by its data, in the current tree and in older ones', async () => {
    const log = await MerkleLog.open({ store: createMemoryNodeStore() })
    await log.append(Array.from({ length: 21 }, (_, i) => leaf(i)))
    const found = await log.proveInclusionOf(leaf(13))
    expect(found?.proof.leafIndex).toBe(13)
    expect(verifyInclusion(found?.leafHash as Uint8Array, found?.proof ?? { leafIndex: 0, treeSize: 0, path: [] }, await log.root())).toBe(true)
    const older = await log.proveInclusionOf(leaf(13), 14)
    expect(older?.proof.treeSize).toBe(14)
    expect(verifyInclusion(hashLeaf(leaf(13)), older?.proof ?? { leafIndex: 0, treeSize: 0, path: [] }, await log.root(14))).toBe(true)
    expect(await log.proveInclusionOf(leaf(13), 13)).toBeUndefined() // not yet in the tree of 13
    expect(await log.proveInclusionOf(leaf(99))).toBeUndefined()
  })

  it('writes two entries per leaf and reads O(log n) hashes per proof', async () => {
    const store = countingStore()
    const log = await MerkleLog.open({ store })
    const n = 1000
    for (let at = 0; at < n; at += 100) await log.append(Array.from({ length: 100 }, (_, k) => leaf(at + k)))
    // n columns (a leaf's data and the interior nodes that leaf completes) + n index entries + the size
    // (no two of these leaf hashes share their first 8 bytes).
    expect(store.inner.entries).toBe(2 * n + 1)
    const bound = 2 * Math.ceil(Math.log2(n)) + 2
    for (const [i, size] of [[0, 1000], [999, 1000], [500, 777], [3, 999], [640, 641]] as const) {
      store.reads = 0
      await log.proveInclusion(i, size)
      expect(store.reads, `inclusion ${i}@${size}`).toBeLessThanOrEqual(bound)
      store.reads = 0
      await log.proveConsistency(i + 1, size)
      expect(store.reads, `consistency ${i + 1}→${size}`).toBeLessThanOrEqual(bound)
      store.reads = 0
      await log.root(size - 1)
      expect(store.reads, `root ${size - 1}`).toBeLessThanOrEqual(Math.ceil(Math.log2(n)))
    }
    store.reads = 0
    await log.root()
    expect(store.reads).toBe(0) // the frontier is in memory
  })

  it('serves its leaves back in log order from their columns (leavesFrom: what sync-v1 pages read)', async () => {
    const store = countingStore()
    const log = await MerkleLog.open({ store })
    // Leaves of different lengths (empty ones too), some repeated: a repeat keeps its first index
    // and is not served twice.
    const data = Array.from({ length: 37 }, (_, i) => i === 20 ? leaf(3) : Uint8Array.from({ length: i % 5 }, (_, k) => i + k))
    data[21] = data[3] as Uint8Array
    for (let at = 0; at < data.length; at += 8) await log.append(data.slice(at, at + 8))
    const expected = data.filter((d, i) => data.findIndex((other) => hex(other) === hex(d)) === i)
    expect(log.size).toBe(expected.length)
    expect((await log.leavesFrom(0, 1000)).map(hex)).toEqual(expected.map(hex))
    expect((await log.leavesFrom(7, 5)).map(hex)).toEqual(expected.slice(7, 12).map(hex))
    expect(await log.leavesFrom(log.size, 10)).toEqual([])
    expect(await log.leavesFrom(3, 0)).toEqual([])
    store.reads = 0
    await log.leavesFrom(10, 4)
    expect(store.reads).toBe(4) // one column per leaf, in one getMany
    // Each column starts with the leaf's data and ends with the hashes the leaf completes.
    expect(hex((await store.get(columnKey(3)) as Uint8Array).subarray(0, expected[3]?.length))).toBe(hex(expected[3] as Uint8Array))
  })

  it('finds every leaf exactly when all leaf hashes share the bytes their index key keeps (log-keys.ts)', async () => {
    // A hasher whose leaf hashes all start with the same 16 bytes: every leaf lands under one index key.
    const colliding: MerkleHasher = {
      leaf: (data) => Uint8Array.from([...new Uint8Array(16), ...hashLeaf(data).subarray(0, 16)]),
      children: DEFAULT_HASHER.children
    }
    await fc.assert(fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 8 }), { minLength: 1, maxLength: 6 }), async (batches) => {
      const reading = await MerkleLog.open({ store: createMemoryNodeStore(), hasher: colliding })
      const store = createMemoryNodeStore()
      const fresh = await MerkleLog.open({ store, hasher: colliding, fresh: true })
      const order: number[] = []
      for (const batch of batches) {
        const results = await reading.append(batch.map((n) => leaf(n)))
        expect(await fresh.append(batch.map((n) => leaf(n)))).toEqual(results)
        batch.forEach((n, i) => {
          if (!order.includes(n)) order.push(n)
          expect(results[i]).toEqual({ index: order.indexOf(n), added: expect.any(Boolean) as unknown })
        })
      }
      for (const log of [reading, fresh, await MerkleLog.open({ store, hasher: colliding })]) {
        for (const n of order) expect(await log.indexOf(leaf(n))).toBe(order.indexOf(n))
        expect(await log.indexOf(leaf(99))).toBeUndefined()
        expect((await log.leavesFrom(0, 100)).map(hex)).toEqual(order.map((n) => hex(leaf(n))))
      }
      expect(store.entries).toBe(order.length === 0 ? 0 : order.length + 2) // the columns, one index key, the size
    }), { numRuns: 50 })
  })

  it('keeps record leaves as their digests (RECORD_LEAF_CODEC) with the same hashes, proofs and leaves', async () => {
    const cids = Array.from({ length: 21 }, (_, i) => leafDataOfCid(`bafyrei${'abcdefgh'[i % 8] as string}${'a'.repeat(49)}${'234567'[i % 6] as string}${'aeimquy4'[i % 8] as string}`))
    const store = createMemoryNodeStore()
    const log = await MerkleLog.open({ store, leafCodec: RECORD_LEAF_CODEC })
    await log.append(cids.slice(0, 9))
    await log.append(cids)
    const hashes = cids.map(hashLeaf)
    expect(hex(await log.root())).toBe(hex(computeRoot(hashes)))
    for (const [i, size] of [[0, 21], [20, 21], [7, 9]] as const) expect((await log.proveInclusion(i, size)).path.map(hex)).toEqual(proveInclusion(hashes, i, size).path.map(hex))
    expect((await log.leavesFrom(0, 30)).map(hex)).toEqual(cids.map(hex))
    expect(await log.indexOf(cids[13] as Uint8Array)).toBe(13)
    expect((await store.get(columnKey(0)))?.length).toBe(32) // the digest, not the 36 CID bytes
    await expect(log.append([Uint8Array.of(1, 2, 3)])).rejects.toMatchObject({ code: 'CID_INVALID' })
  })

  it('keeps its state when a batch fails, and serialises concurrent appends', async () => {
    const store = countingStore()
    const log = await MerkleLog.open({ store })
    await log.append([leaf(0)])
    store.failNext = true
    await expect(log.append([leaf(1), leaf(2)])).rejects.toThrow('disk full')
    expect(log.size).toBe(1)
    const [a, b] = await Promise.all([log.append([leaf(1), leaf(2)]), log.append([leaf(2), leaf(3)])])
    expect(a).toEqual([{ index: 1, added: true }, { index: 2, added: true }])
    expect(b).toEqual([{ index: 2, added: false }, { index: 3, added: true }])
    expect(hex(await log.root())).toBe(hex(computeRoot([0, 1, 2, 3].map((i) => hashLeaf(leaf(i))))))
  })

  it('refuses sizes beyond the log (PROOF_MALFORMED) and reports a damaged store (LOG_CORRUPT)', async () => {
    const store = createMemoryNodeStore()
    const log = await MerkleLog.open({ store })
    await log.append(Array.from({ length: 6 }, (_, i) => leaf(i)))
    expect(await codeOf(log.root(7))).toBe('PROOF_MALFORMED')
    expect(await codeOf(log.proveInclusion(6))).toBe('PROOF_MALFORMED')
    expect(await codeOf(log.proveInclusion(0, 7))).toBe('PROOF_MALFORMED')
    expect(await codeOf(log.proveConsistency(5, 7))).toBe('PROOF_MALFORMED')
    expect(await codeOf(log.proveConsistency(6, 5))).toBe('PROOF_MALFORMED')
    expect(await codeOf(log.proveInclusion(-1))).toBe('PROOF_MALFORMED')
    // Node 1/0 is in the column of leaf 1, node 2/0 in the column of leaf 3 (log-keys.ts).
    await store.batch([{ key: columnKey(1), value: new Uint8Array(31) }])
    expect(await codeOf(log.proveInclusion(3))).toBe('LOG_CORRUPT')
    expect(await codeOf(log.leavesFrom(0, 6))).toBe('LOG_CORRUPT')
    expect((await MerkleLog.open({ store })).size).toBe(6) // node 1/0 is not on the frontier of 6 = 4 + 2
    await store.batch([{ key: columnKey(3), value: new Uint8Array(0) }])
    expect(await codeOf(MerkleLog.open({ store }))).toBe('LOG_CORRUPT')
    await store.batch([{ key: 'size', value: new Uint8Array(3) }])
    expect(await codeOf(MerkleLog.open({ store }))).toBe('LOG_CORRUPT')
  })
})

/** A log opened `fresh` (a rebuild) keeps leaf positions in memory: same log, same answers, no reads. */
describe('MerkleLog opened fresh', () => {
  it('appends as a log reading its store does, repeated leaves included, without reading the store', async () => {
    // Batches of leaf numbers from a small range, so leaves repeat within and across batches.
    await fc.assert(fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }), { minLength: 1, maxLength: 8 }), async (batches) => {
      const reading = await MerkleLog.open({ store: createMemoryNodeStore() })
      const store = countingStore()
      const fresh = await MerkleLog.open({ store, fresh: true })
      const readsAtOpen = store.reads
      for (const batch of batches) {
        const leaves = batch.map(leaf)
        expect(await fresh.append(leaves)).toEqual(await reading.append(leaves))
      }
      expect(store.reads).toBe(readsAtOpen)
      expect(fresh.size).toBe(reading.size)
      expect(await fresh.root()).toEqual(await reading.root())
      if (fresh.size > 0) expect(await fresh.proveInclusion(fresh.size - 1)).toEqual(await reading.proveInclusion(reading.size - 1))
    }), { numRuns: 40 })
  })

  it('forgets the leaves of a batch that failed to write', async () => {
    const store = countingStore()
    const log = await MerkleLog.open({ store, fresh: true })
    await log.append([leaf(1)])
    store.failNext = true
    await expect(log.append([leaf(2), leaf(3)])).rejects.toThrow('disk full')
    expect(await log.append([leaf(3), leaf(1)])).toEqual([{ index: 1, added: true }, { index: 0, added: false }])
  })

  it('refuses a store that already holds a log', async () => {
    const store = createMemoryNodeStore()
    await (await MerkleLog.open({ store })).append([leaf(1)])
    const err = await MerkleLog.open({ store, fresh: true }).catch((e: unknown) => e)
    expect(isIsnadError(err, 'USAGE')).toBe(true)
  })
})
