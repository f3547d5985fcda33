import { afterAll, describe, expect, it } from 'vitest'
import { MAX_SYNC_PAGE_SIZE, SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE, type RecordPage } from '../../../src/net/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { connect, startNode, stopAll, verified, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * sync-v1 §4: a run asks SYNC_FIRST_PAGE_SIZE records first, then twice as many per page up to the
 * page size, so storing starts after a small first page, and no more than the page bytes hold at
 * the size of the records before; every record still arrives once, in order.
 */

/** A host that remembers the limit of every page it was asked for. */
class CountingHost extends MemoryHost {
  readonly limits: number[] = []
  override async recordsSince (cursor: number, limit: number): Promise<RecordPage> {
    this.limits.push(limit)
    return await super.recordsSince(cursor, limit)
  }
}

describe('sync page sizes', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  afterAll(async () => { await stopAll(nodes) })

  it('start at SYNC_FIRST_PAGE_SIZE and double up to the page size; the records arrive in log order', async () => {
    expect(SYNC_PAGE_SIZE).toBe(MAX_SYNC_PAGE_SIZE) // by default: 64, 128, 256, 512, then 1024 a page
    const pageSize = SYNC_FIRST_PAGE_SIZE * 4 // here: 64, 128, 256, 256
    const server = new CountingHost()
    const author = createAgent(44)
    const total = SYNC_FIRST_PAGE_SIZE + 2 * SYNC_FIRST_PAGE_SIZE + pageSize + 10
    for (let k = 0; k < total; k++) server.putLocal(verified(createMemory(author, { summary: `ramp ${k}` }).signed))
    const s = await startNode('S', server, { syncOnConnect: false })
    const y = await startNode('Y', new MemoryHost(), { syncOnConnect: false, syncPageSize: pageSize })
    nodes.push(s, y)
    await connect(y, s)
    const result = await y.network.sync(s.network.peerId)
    expect(server.limits).toEqual([SYNC_FIRST_PAGE_SIZE, 2 * SYNC_FIRST_PAGE_SIZE, pageSize, pageSize])
    expect(result).toMatchObject({ from: 0, to: total, pages: 4, received: total, accepted: total })
    expect(y.host.log).toEqual(server.log)
  }, 60_000)

  it('ask for no more records than the page bytes hold at the size of the records before', async () => {
    const server = new CountingHost()
    const author = createAgent(45)
    const total = 300
    for (let k = 0; k < total; k++) server.putLocal(verified(createMemory(author, { summary: `bytes ${k}` }).signed))
    const sizes = [...server.records.values()].map((r) => r.bytes.length)
    const mean = sizes.reduce((sum, n) => sum + n, 0) / sizes.length
    // Room for about 40 records of the mean size: after the first page (64), every page asks ~40.
    const pageBytes = Math.round(40.5 * mean)
    const s = await startNode('S2', server, { syncOnConnect: false })
    const y = await startNode('Y2', new MemoryHost(), { syncOnConnect: false, syncPageBytes: pageBytes })
    nodes.push(s, y)
    await connect(y, s)
    const result = await y.network.sync(s.network.peerId)
    expect(server.limits[0]).toBe(SYNC_FIRST_PAGE_SIZE)
    for (const limit of server.limits.slice(1)) expect(limit).toBeGreaterThanOrEqual(39)
    for (const limit of server.limits.slice(1)) expect(limit).toBeLessThanOrEqual(41)
    expect(result).toMatchObject({ from: 0, to: total, received: total, accepted: total })
    expect(y.host.log).toEqual(server.log)
  }, 60_000)
})
