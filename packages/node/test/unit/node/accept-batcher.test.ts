import { describe, expect, it } from 'vitest'
import { AcceptBatcher, MAX_ACCEPT_BATCH } from '../../../src/node/pipeline/accept-batcher.js'
import type { VerifiedRecord } from '../../../src/record/index.js'
import type { IngestResult } from '../../../src/node/pipeline/index.js'

/** Stand-ins for verified records: the batcher only groups and hands them over. */
function records (prefix: string, count = 1): VerifiedRecord[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}` }) as unknown as VerifiedRecord)
}

/** A host whose stores finish when the test says so; it keeps every call's ids. */
function gatedHost (refuse: (ids: string[]) => boolean = () => false): { calls: string[][], release: () => void, store: (batch: readonly VerifiedRecord[]) => Promise<IngestResult> } {
  const calls: string[][] = []
  let releases: Array<() => void> = []
  return {
    calls,
    release: () => { const r = releases; releases = []; for (const f of r) f() },
    store: async (batch) => {
      const ids = batch.map((r) => r.id)
      calls.push(ids)
      await new Promise<void>((resolve) => { releases.push(resolve) })
      if (refuse(ids)) throw new Error(`refused ${ids.join(',')}`)
      return { stored: ids, duplicates: [], rescored: [] }
    }
  }
}

const tick = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

describe('AcceptBatcher (group commit of gossiped records)', () => {
  it('stores the first delivery at once and the ones arriving meanwhile together, in arrival order', async () => {
    const host = gatedHost()
    const batcher = new AcceptBatcher(host.store)
    const first = batcher.accept(records('a'))
    await tick()
    expect(host.calls).toEqual([['a0']])
    const later = [batcher.accept(records('b', 2)), batcher.accept(records('c'))]
    await tick()
    expect(host.calls).toHaveLength(1) // waiting for the store in flight
    host.release()
    await first
    await tick()
    expect(host.calls).toEqual([['a0'], ['b0', 'b1', 'c0']])
    host.release()
    // Each caller hears of its own records only.
    expect((await Promise.all(later)).map((result) => result.stored)).toEqual([['b0', 'b1'], ['c0']])
  })

  it('retries a failed combined store call by call, so one refused delivery fails alone', async () => {
    const host = gatedHost((ids) => ids.includes('bad0'))
    const batcher = new AcceptBatcher(host.store)
    const first = batcher.accept(records('a'))
    const good = batcher.accept(records('good'))
    const bad = batcher.accept(records('bad'))
    const outcomes = Promise.allSettled([first, good, bad])
    for (let i = 0; i < 5; i++) { await tick(); host.release() }
    const [a, g, b] = await outcomes
    expect(host.calls).toEqual([['a0'], ['good0', 'bad0'], ['good0'], ['bad0']])
    expect([a?.status, g?.status, b?.status]).toEqual(['fulfilled', 'fulfilled', 'rejected'])
  })

  it("splits a combined result among its callers: each hears of its own stored and duplicate ids, once each, in its order", async () => {
    const calls: string[][] = []
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => { release = resolve })
    // The host stores what it has not seen and reports the rest (ids ending in 'x') as duplicates, as the pipeline does.
    const batcher = new AcceptBatcher(async (batch) => {
      const ids = [...new Set(batch.map((r) => r.id))]
      calls.push(ids)
      if (calls.length === 1) await held
      return { stored: ids.filter((id) => !id.endsWith('x')), duplicates: ids.filter((id) => id.endsWith('x')), rescored: ['m'] }
    })
    const first = batcher.accept(records('a'))
    await tick()
    const single = Array.from({ length: MAX_ACCEPT_BATCH - 5 }, (_, i) => batcher.accept(records(`s${i}-`)))
    const mixed = batcher.accept([...records('k', 2), ...records('k', 1), { id: 'dx' } as unknown as VerifiedRecord])
    const twice = batcher.accept(records('k', 1)) // the same record delivered by two callers
    release()
    await first
    const results = await Promise.all([...single, mixed, twice])
    expect(calls).toHaveLength(2)
    expect(results.slice(0, single.length).map((r) => r.stored)).toEqual(single.map((_, i) => [`s${i}-0`]))
    expect(results.at(-2)).toEqual({ stored: ['k0', 'k1'], duplicates: ['dx'], rescored: ['m'] })
    expect(results.at(-1)).toEqual({ stored: ['k0'], duplicates: [], rescored: ['m'] })
  })

  it('hands the host at most MAX_ACCEPT_BATCH records per call (one oversized delivery goes alone)', async () => {
    const host = gatedHost()
    const batcher = new AcceptBatcher(host.store)
    const all = [batcher.accept(records('a')), batcher.accept(records('b', MAX_ACCEPT_BATCH - 1)), batcher.accept(records('c', 2)), batcher.accept(records('d', MAX_ACCEPT_BATCH + 1))]
    for (let i = 0; i < 6; i++) { await tick(); host.release() }
    await Promise.all(all)
    expect(host.calls.map((c) => c.length)).toEqual([1, MAX_ACCEPT_BATCH - 1, 2, MAX_ACCEPT_BATCH + 1])
  })
})
