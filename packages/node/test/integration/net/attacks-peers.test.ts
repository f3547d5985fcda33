import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TOPICS, USEFUL_PEER_TAG } from '../../../src/net/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { bytesOf, connect, startNode, stopAll, verified, waitFor, waitForMesh, type TestNode } from './fixtures/harness.js'
import { LocalNodeHost } from './fixtures/local-node-host.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * Attacks on a node's peers and history, with real libp2p nodes on loopback (docs/threat-model.md):
 * an eclipse attempt by Sybils dialling in, and replays that outlive the seen cache and a restart.
 */

const pause = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

describe('eclipse attempt: one victim, many Sybils dialling in', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  afterAll(async () => { await stopAll(nodes) })

  it('keeps the honest peer that proved useful and still delivers its messages', async () => {
    const maxConnections = 6
    const v = await startNode('V', new MemoryHost(), { syncOnConnect: false, maxConnections })
    const h = await startNode('H', new MemoryHost(), { syncOnConnect: false })
    nodes.push(v, h)
    await connect(h, v) // inbound at V, like every Sybil: only its conduct sets it apart
    await waitForMesh([[h, v]], [TOPICS.memories])
    const first = createMemory(createAgent(1), { summary: 'before the Sybils' })
    h.host.putLocal(verified(first.signed))
    await h.network.publishRecord(first.signed.record.kind, bytesOf(first.signed))
    await waitFor('V gets H\'s first memory', () => v.host.records.has(first.id))
    await waitFor('V tags H as useful', async () => (await v.network.libp2p.peerStore.get(h.network.peerId)).tags.has(USEFUL_PEER_TAG))

    // Sybils dial in, in waves (libp2p admits 5 new inbound connections per second per host).
    const sybils = await Promise.all(Array.from({ length: 12 }, async (_, i) => await startNode(`S${i}`, new MemoryHost(), { syncOnConnect: false })))
    nodes.push(...sybils)
    for (let wave = 0; wave < 3; wave++) {
      await Promise.allSettled(sybils.slice(wave * 4, wave * 4 + 4).map(async (s) => { await connect(s, v) }))
      await pause(1100)
    }
    await waitFor('V prunes down to its limit', () => v.network.libp2p.getConnections().length <= maxConnections)
    expect(v.network.libp2p.getConnections(h.network.peerId).length).toBeGreaterThan(0)

    const after = Array.from({ length: 10 }, (_, i) => createMemory(createAgent(1), { summary: `after the Sybils ${i}` }))
    for (const memory of after) {
      h.host.putLocal(verified(memory.signed))
      await h.network.publishRecord(memory.signed.record.kind, bytesOf(memory.signed))
    }
    await waitFor('V gets every honest memory', () => after.every((m) => v.host.records.has(m.id)))
  })
})

describe('replays outlive the seen cache and a restart', () => {
  let home: string | undefined
  const nodes: Array<TestNode<MemoryHost | LocalNodeHost>> = []
  afterAll(async () => {
    await stopAll(nodes)
    if (home !== undefined) await rm(home, { recursive: true, force: true })
  })

  it('stores a replayed record once: within the TTL, after it, and after the victim restarts', async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-replay-'))
    await initHome(home)
    let node = await LocalNode.open({ home })
    let v = await startNode('V', new LocalNodeHost(node), { syncOnConnect: false, seenTtlMs: 300 })
    // H forgets its own publications quickly too, so it can send the same bytes again.
    const h = await startNode('H', new MemoryHost(), { syncOnConnect: false, seenTtlMs: 300 })
    nodes.push(h)
    await connect(h, v)
    await waitForMesh([[h, v]], [TOPICS.memories])
    const memory = createMemory(createAgent(2), { summary: 'said once' })
    const bytes = bytesOf(memory.signed)
    await h.network.publishRaw(TOPICS.memories, bytes)
    await waitFor('V stores it', async () => (await node.store.get(memory.id)) !== null)
    await h.network.publishRaw(TOPICS.memories, bytes) // within the TTL: a duplicate publish, dropped
    await pause(400)
    const ignored = v.network.stats.gossip.ignored
    await h.network.publishRaw(TOPICS.memories, bytes) // after both seen caches expired
    await waitFor('V ignores the replay (already stored, gossip-v1 R5)', () => v.network.stats.gossip.ignored > ignored)

    // V restarts: a new process would have an empty seen cache; the store remembers.
    await v.network.stop()
    await node.close()
    node = await LocalNode.open({ home })
    v = await startNode('V', new LocalNodeHost(node), { syncOnConnect: false, seenTtlMs: 300 })
    nodes.push(v)
    await connect(h, v)
    await waitForMesh([[h, v]], [TOPICS.memories])
    await pause(400)
    await h.network.publishRaw(TOPICS.memories, bytes)
    await waitFor('V ignores the replay after its restart', () => v.network.stats.gossip.ignored > 0)
    const counts = await node.store.count()
    expect(counts.memory).toBe(1)
    await v.network.stop()
    nodes.pop()
    await node.close()
  })
})
