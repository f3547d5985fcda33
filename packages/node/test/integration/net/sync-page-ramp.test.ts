import { afterAll, describe, expect, it } from 'vitest'
import { SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE, type RecordPage } from '../../../src/net/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { connect, startNode, stopAll, verified, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * sync-v1 §4: a run asks SYNC_FIRST_PAGE_SIZE records first, then twice as many per page up to the
 * page size, so storing starts after a small first page; every record still arrives once, in order.
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
    expect(SYNC_FIRST_PAGE_SIZE * 4).toBe(SYNC_PAGE_SIZE) // the ramp below: 64, 128, 256, 256
    const server = new CountingHost()
    const author = createAgent(44)
    const total = SYNC_FIRST_PAGE_SIZE + 2 * SYNC_FIRST_PAGE_SIZE + SYNC_PAGE_SIZE + 10
    for (let k = 0; k < total; k++) server.putLocal(verified(createMemory(author, { summary: `ramp ${k}` }).signed))
    const s = await startNode('S', server, { syncOnConnect: false })
    const y = await startNode('Y', new MemoryHost(), { syncOnConnect: false })
    nodes.push(s, y)
    await connect(y, s)
    const result = await y.network.sync(s.network.peerId)
    expect(server.limits).toEqual([SYNC_FIRST_PAGE_SIZE, 2 * SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE, SYNC_PAGE_SIZE])
    expect(result).toMatchObject({ from: 0, to: total, pages: 4, received: total, accepted: total })
    expect(y.host.log).toEqual(server.log)
  })
})
