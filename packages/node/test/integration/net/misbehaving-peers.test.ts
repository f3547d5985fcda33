import type { Stream } from '@libp2p/interface'
import * as lp from 'it-length-prefixed'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DISCONNECT_PENALTY, FETCH_EVIDENCE_PROTOCOL, FETCH_PROTOCOL, MAX_EVIDENCE_RECORDS, STREAM_VIOLATION_PENALTY, SYNC_PROTOCOL, type AcceptSource } from '../../../src/net/index.js'
import { encodeCanonical, encodeSignedRecord, type VerifiedRecord } from '../../../src/record/index.js'
import { createAgent, createAnchor, createAttestation, createMemory } from '../../fixtures/records.js'
import { bytesOf, connect, startNode, stopAll, verified, waitFor, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * fetch-v1 and sync-v1 against real peers: an honest fetch, then peers that answer with oversized
 * frames, garbage, records nobody asked for, or records with bad signatures; a memory's evidence
 * asked by the memory's id (fetch-v1 §9), honestly answered, then with a record of another memory
 * or more records than the limit. Each violation resets
 * the stream and costs the peer STREAM_VIOLATION_PENALTY; at DISCONNECT_PENALTY it is hung up on.
 */

/** Replaces a node's handler for `protocol` with one that reads the request and sends `frames`. */
async function answerWith (node: TestNode<MemoryHost>, protocol: string, frames: () => Uint8Array[]): Promise<void> {
  await node.network.libp2p.handle(protocol, async (stream: Stream) => {
    for (const frame of frames()) stream.send(frame)
    await stream.close()
  }, { force: true })
}

function forged (k: number): { id: string, bytes: Uint8Array } {
  const memory = createMemory(createAgent(30), { summary: `forged ${k}` })
  const { signature } = memory.signed
  return { id: memory.id, bytes: encodeSignedRecord({ record: memory.signed.record, signature: (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1) }) }
}

describe('fetch and sync with honest and misbehaving peers (fetch-v1, sync-v1)', () => {
  let x: TestNode<MemoryHost>
  const nodes: Array<TestNode<MemoryHost>> = []

  beforeAll(async () => {
    x = await startNode('X', new MemoryHost(), { syncOnConnect: false, syncPageTimeoutMs: 3000, fetchTimeoutMs: 3000 })
    nodes.push(x)
  })

  afterAll(async () => { await stopAll(nodes) })

  async function peer (name: string): Promise<TestNode<MemoryHost>> {
    const node = await startNode(name, new MemoryHost(), { syncOnConnect: false })
    nodes.push(node)
    await connect(x, node)
    return node
  }

  it('fetches records by CID: verified, stored with source fetch, missing ones reported', async () => {
    const y = await peer('Y')
    const memory = createMemory(createAgent(31))
    const attestation = createAttestation(createAgent(32), memory.id)
    y.host.putLocal(verified(memory.signed))
    y.host.putLocal(verified(attestation.signed))
    const absent = createMemory(createAgent(31)).id
    const result = await x.network.fetch(y.network.peerId, [memory.id, attestation.id, absent])
    expect(result.records.map((r) => r.id).sort()).toEqual([memory.id, attestation.id].sort())
    expect(result.missing).toEqual([absent])
    expect(x.host.deliveries.get(memory.id)).toEqual(['fetch'])
    const again = await x.network.fetch(y.network.peerId, [memory.id])
    expect(again).toEqual({ records: [], known: [memory.id], missing: [] })
    expect(x.verifier.max).toBe(1)
    expect(x.network.penalty(y.network.peerId)).toBe(0)
  })

  it('resets and penalises an oversized frame, then garbage, then disconnects', async () => {
    const m = await peer('M')
    const wanted = createMemory(createAgent(33)).id
    await answerWith(m, FETCH_PROTOCOL, () => [lp.encode.single(new Uint8Array(200_000)).subarray()])
    await expect(x.network.fetch(m.network.peerId, [wanted])).rejects.toMatchObject({ code: 'RECORD_TOO_LARGE' })
    expect(x.network.penalty(m.network.peerId)).toBeCloseTo(STREAM_VIOLATION_PENALTY, 0)

    await answerWith(m, FETCH_PROTOCOL, () => [lp.encode.single(encodeCanonical({ not: 'a record' })).subarray()])
    await expect(x.network.fetch(m.network.peerId, [wanted])).rejects.toMatchObject({ code: 'SCHEMA_INVALID' })
    expect(x.network.penalty(m.network.peerId)).toBeGreaterThanOrEqual(DISCONNECT_PENALTY - 1)
    await waitFor('X hangs up on M', () => x.network.libp2p.getConnections(m.network.peerId).length === 0)
    expect(x.host.records.size).toBe(2) // what Y sent, nothing from M
  })

  it('refuses a record that was not asked for, and records with bad signatures', async () => {
    const n = await peer('N')
    const other = createMemory(createAgent(34))
    await answerWith(n, FETCH_PROTOCOL, () => [lp.encode.single(bytesOf(other.signed)).subarray()])
    await expect(x.network.fetch(n.network.peerId, [createMemory(createAgent(34)).id])).rejects.toMatchObject({ code: 'CID_MISMATCH' })
    expect(x.host.records.has(other.id)).toBe(false)

    const bad = forged(1)
    await answerWith(n, FETCH_PROTOCOL, () => [lp.encode.single(bad.bytes).subarray()])
    await connect(x, n)
    await expect(x.network.fetch(n.network.peerId, [bad.id])).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' })
    expect(x.host.records.has(bad.id)).toBe(false)
  })

  it('ends a sync at an invalid record without saving the cursor', async () => {
    const s = await peer('S')
    const good = createMemory(createAgent(35))
    const bad = forged(2)
    await answerWith(s, SYNC_PROTOCOL, () => [
      lp.encode.single(encodeCanonical({ count: 2, next: 2 })).subarray(),
      lp.encode.single(bytesOf(good.signed)).subarray(),
      lp.encode.single(bad.bytes).subarray()
    ])
    await expect(x.network.sync(s.network.peerId)).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' })
    expect(await x.host.loadCursor(s.network.peerId.toString())).toBeNull()
    expect(x.host.records.has(good.id)).toBe(false)
    expect(x.host.records.has(bad.id)).toBe(false)
    expect(x.network.penalty(s.network.peerId)).toBeGreaterThan(0)

    await answerWith(s, SYNC_PROTOCOL, () => [lp.encode.single(encodeCanonical({ count: 9, next: 0 })).subarray()])
    await expect(x.network.sync(s.network.peerId)).rejects.toMatchObject({ code: 'DECODE_FAILED' })
  })

  it('with pages asked ahead, stores the pages before an invalid one and saves their cursors only', async () => {
    const y = await startNode('Y', new MemoryHost(), { syncOnConnect: false, syncPageSize: 2, syncPageTimeoutMs: 3000 })
    nodes.push(y)
    const s = await startNode('S2', new MemoryHost(), { syncOnConnect: false })
    nodes.push(s)
    await connect(y, s)
    const good = Array.from({ length: 5 }, (_, k) => createMemory(createAgent(36), { summary: `page record ${k}` }))
    const frames = (count: number, next: number, records: Uint8Array[]): Uint8Array[] =>
      [encodeCanonical({ count, next }), ...records].map((frame) => lp.encode.single(frame).subarray())
    const pages = [
      frames(2, 2, [bytesOf(good[0]!.signed), bytesOf(good[1]!.signed)]),
      frames(2, 4, [bytesOf(good[2]!.signed), bytesOf(good[3]!.signed)]),
      frames(2, 6, [bytesOf(good[4]!.signed), forged(4).bytes])
    ]
    let requests = 0
    await answerWith(s, SYNC_PROTOCOL, () => pages[Math.min(requests++, pages.length - 1)]!)
    await expect(y.network.sync(s.network.peerId)).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' })
    expect(await y.host.loadCursor(s.network.peerId.toString())).toBe(4)
    expect(good.map((g) => y.host.records.has(g.id))).toEqual([true, true, true, true, false])
    expect(requests).toBeLessThanOrEqual(4) // at most one page asked beyond the invalid one, none after
  })

  it('stores a page while the one before it finishes, yet saves cursors in page order and none past a page whose store failed', async () => {
    // Page 1 is slow to store, page 3 fails: page 2's store overlaps page 1's, its cursor waits.
    class SlowHost extends MemoryHost {
      readonly saved: number[] = []
      calls = 0
      override async accept (records: readonly VerifiedRecord[], source: AcceptSource): Promise<void> {
        const call = ++this.calls
        if (call === 1) await new Promise((resolve) => setTimeout(resolve, 300))
        if (call === 3) throw new Error('disk full')
        await super.accept(records, source)
      }

      override async saveCursor (peerId: string, cursor: number): Promise<void> {
        this.saved.push(cursor)
        await super.saveCursor(peerId, cursor)
      }
    }
    const host = new SlowHost()
    const y = await startNode('Y2', host, { syncOnConnect: false, syncPageSize: 2, syncPageTimeoutMs: 3000 })
    nodes.push(y)
    const s = await startNode('S3', new MemoryHost(), { syncOnConnect: false })
    nodes.push(s)
    await connect(y, s)
    const good = Array.from({ length: 8 }, (_, k) => createMemory(createAgent(37), { summary: `ordered record ${k}` }))
    const page = (n: number): Uint8Array[] => [encodeCanonical({ count: 2, next: 2 * n + 2 }), bytesOf(good[2 * n]!.signed), bytesOf(good[2 * n + 1]!.signed)]
      .map((frame) => lp.encode.single(frame).subarray())
    let requests = 0
    await answerWith(s, SYNC_PROTOCOL, () => page(Math.min(requests++, 3)))
    await expect(y.network.sync(s.network.peerId)).rejects.toThrow('disk full')
    expect(host.saved).toEqual([2, 4])
    expect(await host.loadCursor(s.network.peerId.toString())).toBe(4)
    expect(good.slice(0, 4).map((g) => host.records.has(g.id))).toEqual([true, true, true, true])
    expect(good.slice(4, 6).map((g) => host.records.has(g.id))).toEqual([false, false])
  })

  it('fetches a memory\'s evidence by the memory\'s id: verified, stored with source fetch, nothing of other memories (fetch-v1 §9)', async () => {
    const e = await peer('E')
    const memory = createMemory(createAgent(40))
    const other = createMemory(createAgent(40), { summary: 'another memory' })
    const evidence = [createAttestation(createAgent(41), memory.id), createAttestation(createAgent(42), memory.id, 'dispute'), createAnchor(createAgent(40), memory.id)]
    for (const record of [memory, other, ...evidence, createAttestation(createAgent(41), other.id)]) e.host.putLocal(verified(record.signed))
    x.host.putLocal(verified(memory.signed))
    const result = await x.network.fetchEvidence(e.network.peerId, memory.id)
    expect(result.records.map((r) => r.id)).toEqual(evidence.map((r) => r.id))
    for (const record of evidence) expect(x.host.deliveries.get(record.id)).toEqual(['fetch'])
    // Asked again: everything is known, nothing verified or stored twice; a memory without evidence: nothing.
    expect(await x.network.fetchEvidence(e.network.peerId, memory.id)).toEqual({ records: [], known: evidence.map((r) => r.id) })
    expect(await x.network.fetchEvidence(e.network.peerId, createMemory(createAgent(43)).id)).toEqual({ records: [], known: [] })
    expect(x.network.penalty(e.network.peerId)).toBe(0)
  })

  it('refuses evidence of another memory, and more records than the limit, as violations (fetch-v1 E3–E4)', async () => {
    const memory = createMemory(createAgent(44))
    const stray = createAttestation(createAgent(45), createMemory(createAgent(46)).id)
    const f = await peer('F')
    await answerWith(f, FETCH_EVIDENCE_PROTOCOL, () => [lp.encode.single(bytesOf(stray.signed)).subarray()])
    await expect(x.network.fetchEvidence(f.network.peerId, memory.id)).rejects.toMatchObject({ code: 'CID_MISMATCH' })
    expect(x.host.records.has(stray.id)).toBe(false)
    expect(x.network.penalty(f.network.peerId)).toBeGreaterThanOrEqual(STREAM_VIOLATION_PENALTY - 1)

    const g = await peer('G')
    const at = (i: number): string => `2026-02-05T17:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`
    const flood = Array.from({ length: MAX_EVIDENCE_RECORDS + 1 }, (_, i) => lp.encode.single(bytesOf(createAttestation(createAgent(47), memory.id, 'confirm', at(i)).signed)).subarray())
    await answerWith(g, FETCH_EVIDENCE_PROTOCOL, () => flood)
    await expect(x.network.fetchEvidence(g.network.peerId, memory.id)).rejects.toMatchObject({ code: 'DECODE_FAILED' })
    expect(x.network.penalty(g.network.peerId)).toBeGreaterThanOrEqual(STREAM_VIOLATION_PENALTY - 1)
  })
})
