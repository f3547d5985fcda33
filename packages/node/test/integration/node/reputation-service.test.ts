import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ReputationService } from '../../../src/node/trust/reputation-service.js'
import { createMemoryRecordStore, type RecordStore } from '../../../src/record-index/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'

const NOW = Date.parse('2026-02-06T12:00:00Z')
const alice = createAgent(90)
const witnesses = [91, 92, 93].map(createAgent)

/** The store, counting the full scans a reload makes (each starts with a query). */
function counted (store: RecordStore): { store: RecordStore, scans: () => number } {
  let scans = 0
  const query: RecordStore['query'] = async (q) => { scans++; return await store.query(q) }
  return { store: Object.assign(Object.create(store) as RecordStore, { query }), scans: () => scans }
}

describe('ReputationService: told of stored records, it reloads nothing', () => {
  let dir: string
  let store: RecordStore
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isnad-reputation-service-'))
    store = createMemoryRecordStore()
    await store.open()
  })
  afterEach(async () => {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('counts a batch once when a reload read it before it was observed (a view round between store and publish)', async () => {
    const { store: reads, scans } = counted(store)
    const service = new ReputationService({ dataDir: dir, store: reads, clock: () => NOW, ownAgents: async () => [alice.did] })
    const memory = createMemory(alice)
    await store.putMany([memory])
    service.observe([memory])
    await service.current()
    expect(scans()).toBe(1) // the first read loads the graph
    const batch = [createAttestation(witnesses[0]!, memory.id), createAttestation(witnesses[1]!, memory.id), createMemory(alice, { summary: 'second' })]
    await store.putMany(batch)
    await service.current() // read before the batch is observed: the count differs, so it reloads
    expect(scans()).toBe(2)
    service.observe(batch) // then told of it: already loaded, not counted again
    await service.current()
    const next = [createAttestation(witnesses[2]!, memory.id)]
    await store.putMany(next)
    service.observe(next)
    await service.current()
    expect(scans(), 'no reload after the batch a reload already held, nor after the next one').toBe(2)
    expect((await service.current()).describe(witnesses[2]!.did)).toEqual((await new ReputationService({ dataDir: dir, store, clock: () => NOW, ownAgents: async () => [alice.did] }).current()).describe(witnesses[2]!.did))
  })

  it('scores a batch with its pending votes as it will once they are stored: votes on stored memories and on the batch\'s own', async () => {
    const service = new ReputationService({ dataDir: dir, store, clock: () => NOW, ownAgents: async () => [alice.did] })
    const [w0, w1, w2] = witnesses as [typeof alice, typeof alice, typeof alice]
    // Stored: alice's memories, one attested by w0 (so w0 earns from the root), one by nobody yet.
    const first = createMemory(alice)
    const second = createMemory(alice, { summary: 'second' })
    const stored = [first, second, createAttestation(w0, first.id)]
    await store.putMany(stored)
    service.observe(stored)
    await service.current()
    // The batch: votes on both stored memories, a memory of w0's with votes, one on a memory nobody holds.
    const third = createMemory(w0, { summary: 'third' })
    const batch = [
      createAttestation(w1, first.id), createAttestation(w1, second.id), createAttestation(w2, second.id),
      third, createAttestation(w1, third.id), createAttestation(w2, third.id), createAttestation(w2, createMemory(w1).id)
    ]
    const pending = await service.recent(undefined, batch)
    await store.putMany(batch)
    service.observe(batch)
    const after = await new ReputationService({ dataDir: dir, store, clock: () => NOW, ownAgents: async () => [alice.did] }).current()
    const observed = await service.current()
    for (const agent of [alice, w0, w1, w2]) {
      expect(pending.describe(agent.did), agent.did).toEqual(after.describe(agent.did))
      // The look ahead changed none of the service's memories: observing the batch then gives the same.
      expect(observed.describe(agent.did), agent.did).toEqual(after.describe(agent.did))
    }
  })
})
