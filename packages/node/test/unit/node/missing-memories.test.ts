import { describe, expect, it } from 'vitest'
import { MissingMemories, MISSING_MEMORY_ATTEMPTS, type MemoryFetcher } from '../../../src/node/index.js'
import type { VerifiedRecord } from '../../../src/record/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { verified } from '../../integration/net/fixtures/harness.js'

/** A peer set that has the memory only from its `holdsFrom`-th ask on, and keeps every ask. */
function peersHolding (record: VerifiedRecord, holdsFrom: number): MemoryFetcher & { asks: Array<[string, string]> } {
  const asks: Array<[string, string]> = []
  return {
    asks,
    fetchMemory: async (memoryId, from) => {
      asks.push([memoryId, from])
      return asks.length >= holdsFrom && memoryId === record.id ? [record] : []
    }
  }
}

describe('MissingMemories (gossip-v1 R10, after delivery)', () => {
  const memory = verified(createMemory(createAgent(1)).signed)

  it('asks the sender, asks again while no peer has it yet, and ingests what it gets with source fetch', async () => {
    const host = new MemoryHost()
    const missing = new MissingMemories(host)
    const peers = peersHolding(memory, 2)
    missing.fetchWith(peers)
    missing.want(memory.id, 'sender')
    missing.want(memory.id, 'other') // one ask per memory at a time
    await missing.idle()
    expect(peers.asks).toEqual([[memory.id, 'sender'], [memory.id, 'sender']])
    expect(host.deliveries.get(memory.id)).toEqual(['fetch'])
  })

  it('gives up after MISSING_MEMORY_ATTEMPTS asks, and asks nothing for a memory stored meanwhile', async () => {
    const host = new MemoryHost()
    const missing = new MissingMemories(host)
    const never = peersHolding(memory, Number.POSITIVE_INFINITY)
    missing.fetchWith(never)
    missing.want(memory.id, 'sender')
    await missing.idle()
    expect(never.asks).toHaveLength(MISSING_MEMORY_ATTEMPTS)
    host.putLocal(memory)
    missing.want(memory.id, 'sender')
    await missing.idle()
    expect(never.asks).toHaveLength(MISSING_MEMORY_ATTEMPTS)
    expect(host.deliveries.get(memory.id)).toBeUndefined()
  })

  it('learns nothing without a fetcher, and stops waiting between asks on close', async () => {
    const host = new MemoryHost()
    const missing = new MissingMemories(host)
    missing.want(memory.id, 'sender') // no network: left to sync
    await missing.idle()
    const never = peersHolding(memory, Number.POSITIVE_INFINITY)
    missing.fetchWith(never)
    missing.want(memory.id, 'sender')
    await new Promise((resolve) => setImmediate(resolve))
    const started = Date.now()
    await missing.close()
    expect(Date.now() - started).toBeLessThan(400)
    expect(never.asks).toHaveLength(1)
  })
})
