import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_KEY_LOG_BYTES } from '../../../src/key-events/index.js'
import { MAX_ENVELOPE_BYTES, MAX_GOSSIP_DATA_BYTES, MAX_GOSSIP_FRAME_BYTES, TOPICS, type Topic } from '../../../src/net/index.js'
import { MAX_RECORD_BYTES } from '../../../src/schema/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { bytesOf, connect, startNode, stopAll, verified, waitFor, waitForMesh, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * gossip-v1 §7 and G1–G3 on two real libp2p nodes on loopback: the data limits
 * and gossipsub's frame cap agree, so a message just over its topic's limit reaches the validator and
 * is Rejected (P4 penalty), and the sender is still heard afterwards; a frame over the cap gets the
 * sender penalised and disconnected, never left connected but unheard.
 */

describe('gossip frame and data limits', () => {
  let v: TestNode<MemoryHost>
  let a: TestNode<MemoryHost>

  beforeEach(async () => {
    v = await startNode('V', new MemoryHost(), { syncOnConnect: false })
    a = await startNode('A', new MemoryHost(), { syncOnConnect: false })
    await connect(a, v)
    await waitForMesh([[a, v]], [TOPICS.memories, TOPICS.witnessRequests, TOPICS.keyEvents])
  })

  afterEach(async () => { await stopAll([a, v]) })

  /** A signed memory from A, which V must still receive from A itself. */
  async function heardFromA (summary: string): Promise<void> {
    const memory = createMemory(createAgent(1), { summary })
    a.host.putLocal(verified(memory.signed))
    await a.network.publishRecord(memory.signed.record.kind, bytesOf(memory.signed))
    await waitFor(`V receives "${summary}" from A`, () => v.host.records.has(memory.id))
  }

  it('documents one set of limits: each topic\'s data limit, plus framing, fits the frame cap', () => {
    expect(MAX_ENVELOPE_BYTES).toBe(266_240)
    expect(MAX_GOSSIP_DATA_BYTES).toBe(Math.max(MAX_RECORD_BYTES, MAX_ENVELOPE_BYTES, MAX_KEY_LOG_BYTES))
    // RPC framing around one message: field tags, length varints and the longest topic name.
    const overhead = 1 + 3 + 1 + 3 + 1 + 1 + Math.max(...Object.values(TOPICS).map((t) => t.length))
    expect(MAX_GOSSIP_FRAME_BYTES).toBeGreaterThanOrEqual(2 * (MAX_GOSSIP_DATA_BYTES + overhead))
  })

  const justOver: Array<[Topic, number]> = [
    [TOPICS.witnessRequests, MAX_ENVELOPE_BYTES + 1],
    [TOPICS.keyEvents, MAX_KEY_LOG_BYTES + 1],
    [TOPICS.memories, MAX_GOSSIP_DATA_BYTES + 1024]
  ]

  for (const [topic, size] of justOver) {
    it(`${topic}: ${size} bytes are Rejected with a penalty, and A is still heard afterwards`, async () => {
      const before = { ...v.network.stats.gossip }
      const sent = await a.network.publishRaw(topic, new Uint8Array(size).fill(0x81))
      expect(sent.recipients).toBe(1)
      await waitFor('V rejects the oversized message', () => v.network.stats.gossip.rejected === before.rejected + 1)
      expect(v.network.stats.gossip.accepted).toBe(before.accepted)
      await waitFor('V scores A down (P4)', () => v.network.peerScore(a.network.peerId) < 0)
      expect(v.network.libp2p.getConnections(a.network.peerId).length).toBeGreaterThan(0)
      await heardFromA(`after ${size} bytes on ${topic}`)
    })
  }

  it('a frame over MAX_GOSSIP_FRAME_BYTES: A is penalised and disconnected, not left connected but unheard; it can come back', async () => {
    const before = { gossip: { ...v.network.stats.gossip }, violations: v.network.stats.violations }
    const sent = await a.network.publishRaw(TOPICS.memories, new Uint8Array(MAX_GOSSIP_FRAME_BYTES + 1).fill(0x81))
    expect(sent.recipients).toBe(1) // A really sent it: only V's cap stops it
    await waitFor('V disconnects A', () => v.network.libp2p.getConnections(a.network.peerId).length === 0)
    expect(v.network.stats.violations).toBe(before.violations + 1)
    await waitFor('V scores A down (P5, application penalty)', () => v.network.peerScore(a.network.peerId) < 0)
    // The frame never reached a validator.
    expect(v.network.stats.gossip).toEqual(before.gossip)
    // V no longer grafts A into its mesh (A's score is negative), but A's flood-publish still reaches V.
    await connect(a, v)
    await waitFor('A sees V subscribed again', () => a.network.libp2p.services.pubsub.getSubscribers(TOPICS.memories).some((p) => p.equals(v.network.peerId)))
    await heardFromA('after reconnecting')
  })
})
