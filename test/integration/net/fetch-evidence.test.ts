import type { Stream } from '@libp2p/interface'
import * as lp from 'it-length-prefixed'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FETCH_EVIDENCE_PROTOCOL, MAX_EVIDENCE_RECORDS, STREAM_VIOLATION_PENALTY } from '../../../src/net/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'
import { bytesOf, connect, startNode, stopAll, verified, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * fetch-v1 §9 between real libp2p nodes on 127.0.0.1: a memory's evidence asked by the memory's id.
 * An honest peer sends the attestations, anchors and witness requests it holds, each verified and
 * handed over with source `fetch`; a peer that sends a record of another memory, or too many, is a
 * violation: the stream is reset, the peer penalised and nothing of the response is used.
 */

describe('a memory\'s evidence by the memory\'s id (fetch-v1 §9)', () => {
  let x: TestNode<MemoryHost>
  const nodes: Array<TestNode<MemoryHost>> = []

  beforeAll(async () => {
    x = await startNode('X', new MemoryHost(), { syncOnConnect: false, fetchTimeoutMs: 5000 })
    nodes.push(x)
  })

  afterAll(async () => { await stopAll(nodes) })

  async function peer (name: string): Promise<TestNode<MemoryHost>> {
    const node = await startNode(name, new MemoryHost(), { syncOnConnect: false })
    nodes.push(node)
    await connect(x, node)
    return node
  }

  it('brings the attestations and anchors a peer holds, verified, and nothing of other memories', async () => {
    const y = await peer('Y')
    const memory = createMemory(createAgent(40))
    const other = createMemory(createAgent(40), { summary: 'another memory' })
    const evidence = [createAttestation(createAgent(41), memory.id), createAttestation(createAgent(42), memory.id, 'dispute'), createAnchor(createAgent(40), memory.id)]
    for (const record of [memory, other, ...evidence, createAttestation(createAgent(41), other.id)]) y.host.putLocal(verified(record.signed))
    x.host.putLocal(verified(memory.signed))

    const result = await x.network.fetchEvidence(y.network.peerId, memory.id)
    expect(result.records.map((r) => r.id)).toEqual(evidence.map((r) => r.id))
    expect(result.known).toEqual([])
    for (const record of evidence) expect(x.host.deliveries.get(record.id)).toEqual(['fetch'])
    // Asked again: everything is known, nothing verified or stored twice.
    const again = await x.network.fetchEvidence(y.network.peerId, memory.id)
    expect(again).toEqual({ records: [], known: evidence.map((r) => r.id) })
    // A memory the peer holds no evidence of: an empty answer, no penalty.
    expect(await x.network.fetchEvidence(y.network.peerId, createMemory(createAgent(43)).id)).toEqual({ records: [], known: [] })
    expect(x.network.penalty(y.network.peerId)).toBe(0)
  })

  it('refuses a record of another memory, and more records than the limit, as violations', async () => {
    const z = await peer('Z')
    const memory = createMemory(createAgent(44))
    const stray = createAttestation(createAgent(45), createMemory(createAgent(46)).id)
    await z.network.libp2p.handle(FETCH_EVIDENCE_PROTOCOL, async (stream: Stream) => {
      stream.send(lp.encode.single(bytesOf(stray.signed)).subarray())
      await stream.close()
    }, { force: true })
    await expect(x.network.fetchEvidence(z.network.peerId, memory.id)).rejects.toMatchObject({ code: 'CID_MISMATCH' })
    expect(x.host.deliveries.has(stray.id)).toBe(false)
    expect(x.network.penalty(z.network.peerId)).toBeGreaterThanOrEqual(STREAM_VIOLATION_PENALTY - 1)

    const w = await peer('W')
    const flood = Array.from({ length: MAX_EVIDENCE_RECORDS + 1 }, (_, i) => bytesOf(createAttestation(createAgent(47), memory.id, 'confirm', `2026-02-05T17:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`).signed))
    await w.network.libp2p.handle(FETCH_EVIDENCE_PROTOCOL, async (stream: Stream) => {
      for (const frame of flood) stream.send(lp.encode.single(frame).subarray())
      await stream.close()
    }, { force: true })
    await expect(x.network.fetchEvidence(w.network.peerId, memory.id)).rejects.toMatchObject({ code: 'DECODE_FAILED' })
    expect(x.network.penalty(w.network.peerId)).toBeGreaterThanOrEqual(STREAM_VIOLATION_PENALTY - 1)
  })
})
