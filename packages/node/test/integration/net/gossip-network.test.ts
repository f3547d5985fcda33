import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TOPICS } from '../../../src/net/index.js'
import { encodeCanonical, encodeSignedRecord } from '../../../src/record/index.js'
import type { SignedRecord } from '../../../src/schema/index.js'
import { createAgent, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'
import { MemoryHost } from './fixtures/memory-host.js'
import { bytesOf, connect, startNode, stopAll, verified, waitFor, waitForMesh, type TestNode } from './fixtures/harness.js'

/*
 * Gossip with real libp2p nodes on 127.0.0.1: five nodes in a line A–B–C–D–E (TCP and WebSocket
 * links alternating), plus F, which publishes records with bad signatures, hanging off C.
 * Each node has an in-memory host and a verifier that counts signature checks.
 */

const SEEN_TTL_MS = 1500

describe('gossip across five nodes in a line (gossip-v1, fetch-v1)', () => {
  let nodes: Array<TestNode<MemoryHost>> = []
  let line: Array<TestNode<MemoryHost>> = []

  beforeAll(async () => {
    line = await Promise.all(['A', 'B', 'C', 'D', 'E'].map(async (name) => await startNode(name, new MemoryHost(), { seenTtlMs: SEEN_TTL_MS })))
    nodes = [...line]
    for (let i = 0; i + 1 < line.length; i++) await connect(line[i]!, line[i + 1]!, i % 2 === 0 ? 'tcp' : 'ws')
    await waitForMesh(line.slice(1).map((node, i) => [line[i]!, node] as const))
  })

  afterAll(async () => { await stopAll(nodes) })

  it('delivers a memory published by A to every node, stored once each, validated on each node\'s own thread', async () => {
    const [a] = line
    const memory = createMemory(createAgent(1))
    a!.host.putLocal(verified(memory.signed))
    await a!.network.publishRecord(memory.signed.record.kind, bytesOf(memory.signed))
    await waitFor('the memory on every node', () => line.every((n) => n.host.records.has(memory.id)))
    for (const node of line) expect(node.host.storedCount(memory.id), node.name).toBe(1)
    for (const node of line.slice(1)) {
      expect(node.host.deliveries.get(memory.id), node.name).toEqual(['gossip'])
      // Validated at each hop on the node's own thread: a hop forwards only once its validator
      // answered, so a check sent to a verifier thread and back delays every node after it.
      expect(node.verifier.asyncCalls, node.name).toBe(0)
    }
  })

  it('fetches the memory of an attestation the receivers have not seen', async () => {
    const c = line[2]!
    const memory = createMemory(createAgent(2))
    const attestation = createAttestation(createAgent(3), memory.id)
    c.host.putLocal(verified(memory.signed)) // C holds the memory but never gossips it
    c.host.putLocal(verified(attestation.signed))
    await c.network.publishRecord(attestation.signed.record.kind, bytesOf(attestation.signed))
    await waitFor('memory and attestation everywhere', () => line.every((n) => n.host.records.has(memory.id) && n.host.records.has(attestation.id)))
    for (const node of line.filter((n) => n !== c)) {
      expect(node.host.deliveries.get(memory.id), node.name).toEqual(['fetch'])
      expect(node.host.deliveries.get(attestation.id), node.name).toEqual(['gossip'])
      // R10: each hop asked its neighbour after delivery (again, when the neighbour was still
      // fetching it), never while validating: the attestation is stored first.
      expect(node.host.log.indexOf(attestation.id), node.name).toBeLessThan(node.host.log.indexOf(memory.id))
    }
  })

  it('carries the memory inside a witness request', async () => {
    const b = line[1]!
    const memory = createMemory(createAgent(4))
    const request = createWitnessRequest(createAgent(4), memory.id, [createAgent(5)])
    b.host.putLocal(verified(memory.signed))
    b.host.putLocal(verified(request.signed))
    await b.network.publishWitnessRequest(bytesOf(request.signed), bytesOf(memory.signed))
    await waitFor('request and memory everywhere', () => line.every((n) => n.host.records.has(memory.id) && n.host.records.has(request.id)))
    for (const node of line.filter((n) => n !== b)) {
      expect(node.host.deliveries.get(memory.id), node.name).toEqual(['gossip'])
      expect(node.host.deliveries.get(request.id), node.name).toEqual(['gossip'])
    }
  })

  it('stores a replayed message once, within and after the seen-cache TTL', async () => {
    const [a, , , d, e] = line
    const memory = createMemory(createAgent(6))
    const bytes = bytesOf(memory.signed)
    a!.host.putLocal(verified(memory.signed))
    await a!.network.publishRecord('memory', bytes)
    await waitFor('the memory on every node', () => line.every((n) => n.host.records.has(memory.id)))
    const ignoredBefore = d!.network.stats.gossip.ignored
    // Within the TTL: E replays it to D, whose message-id cache drops it before any validator.
    await e!.network.publishRaw(TOPICS.memories, bytes)
    // After the TTL: A publishes it again; B's validator finds it stored (R5) and ignores it.
    await new Promise((resolve) => setTimeout(resolve, SEEN_TTL_MS + 500))
    const ignoredB = line[1]!.network.stats.gossip.ignored
    await a!.network.publishRecord('memory', bytes)
    await waitFor('B ignores the replay', () => line[1]!.network.stats.gossip.ignored > ignoredB)
    expect(d!.network.stats.gossip.ignored).toBe(ignoredBefore)
    for (const node of line) {
      expect(node.host.storedCount(memory.id), node.name).toBe(1)
      expect(node.host.deliveries.get(memory.id)?.length ?? 0, node.name).toBeLessThanOrEqual(1)
    }
  })

  it('rejects a node that publishes records with invalid signatures: nothing stored, its score drops', async () => {
    const c = line[2]!
    const f = await startNode('F', new MemoryHost(), { seenTtlMs: SEEN_TTL_MS })
    nodes.push(f)
    await connect(f, c, 'tcp')
    await waitForMesh([[f, c]])
    const forged = [1, 2, 3].map((k) => {
      const memory = createMemory(createAgent(7), { summary: `forged ${k}` })
      const signature = memory.signed.signature
      const tampered = { record: memory.signed.record, signature: (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1) }
      return { id: memory.id, bytes: encodeSignedRecord(tampered) }
    })
    // Wrong kind for the topic, and non-canonical bytes, are invalid too (gossip-v1 R3, R6).
    const attestation = createAttestation(createAgent(7), 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
    const nonCanonical = signatureFirst(createMemory(createAgent(7), { summary: 'keys out of order' }).signed)
    for (const { bytes } of forged) await f.network.publishRaw(TOPICS.memories, bytes)
    await f.network.publishRaw(TOPICS.memories, bytesOf(attestation.signed))
    await f.network.publishRaw(TOPICS.memories, nonCanonical)
    await waitFor('C rejects all five', () => c.network.stats.gossip.rejected >= 5)
    await waitFor('F\'s score drops below the graylist threshold', () => c.network.peerScore(f.network.peerId) < -80)
    for (const node of nodes) {
      for (const { id } of forged) expect(node.host.records.has(id), node.name).toBe(false)
      expect(node.host.records.has(attestation.id), node.name).toBe(false)
    }
    // Nothing passed C: the others never saw any of it.
    for (const node of line.filter((n) => n !== c)) expect(node.network.stats.gossip.rejected, node.name).toBe(0)
  })

  it('lets a node that joins late catch up by sync from E, then sync nothing new', async () => {
    const e = line[4]!
    const g = await startNode('G', new MemoryHost(), { syncPageSize: 4 })
    nodes.push(g)
    await connect(g, e, 'ws') // sync-v1 runs on connect
    const peerE = e.network.peerId.toString()
    await waitFor('G holds everything E holds', () => g.host.log.length === e.host.log.length && g.host.cursors.get(peerE) === e.host.log.length)
    expect(new Set(g.host.log)).toEqual(new Set(e.host.log))
    for (const id of g.host.log) expect(g.host.deliveries.get(id), id).toEqual(['sync'])
    const again = await g.network.sync(e.network.peerId)
    expect(again).toMatchObject({ received: 0, accepted: 0, from: e.host.log.length, to: e.host.log.length })
  })

  it('verifies each distinct record at most 1.2 times per node', () => {
    for (const node of nodes) {
      expect(node.verifier.perMessage, `${node.name}: ${node.verifier.total} checks of ${node.verifier.calls.size} messages`).toBeLessThanOrEqual(1.2)
      expect(node.verifier.max, node.name).toBe(1)
    }
  })
})

/**
 * The signed record with its two keys in the wrong order: DAG-CBOR sorts `record` (6 bytes)
 * before `signature` (9 bytes), so these bytes are not the canonical form (record-v1 R18).
 */
function signatureFirst (signed: SignedRecord): Uint8Array {
  const utf8 = new TextEncoder()
  const signature = utf8.encode(signed.signature)
  return Uint8Array.from([
    0xa2, 0x69, ...utf8.encode('signature'), 0x78, signature.length, ...signature,
    0x66, ...utf8.encode('record'), ...encodeCanonical(signed.record)
  ])
}
