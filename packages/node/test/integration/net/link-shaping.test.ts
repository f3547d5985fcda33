import { performance } from 'node:perf_hooks'
import { afterAll, describe, expect, it } from 'vitest'
import { retransmissionTimeoutMs, type LinkConditions } from '../../../src/net/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'
import { connect, startNode, stopAll, verified, type TestNode } from './fixtures/harness.js'
import { MemoryHost } from './fixtures/memory-host.js'

/*
 * Link shaping (src/net/link/link-shaping.ts) on two real libp2p nodes on 127.0.0.1: every chunk each end
 * writes waits latency ± jitter, so a request and its answer (fetch-v1) take at least 2 × latency; a
 * lost segment costs a retransmission timeout, and the bytes still arrive whole. Only lower bounds
 * are asserted.
 */

describe('link shaping', () => {
  const nodes: Array<TestNode<MemoryHost>> = []
  const author = createAgent(71)
  afterAll(async () => { await stopAll(nodes) })

  async function pair (conditions: LinkConditions): Promise<[TestNode<MemoryHost>, TestNode<MemoryHost>]> {
    const a = await startNode('A', new MemoryHost(), { linkConditions: conditions, syncOnConnect: false, listen: ['/ip4/127.0.0.1/tcp/0'] })
    const b = await startNode('B', new MemoryHost(), { linkConditions: conditions, syncOnConnect: false, listen: ['/ip4/127.0.0.1/tcp/0'] })
    nodes.push(a, b)
    await connect(a, b)
    return [a, b]
  }

  /** How long `a` takes to fetch one record `b` holds: a new stream, the request, the answer. */
  async function timedFetch (a: TestNode<MemoryHost>, b: TestNode<MemoryHost>, body = ''): Promise<number> {
    const memory = createMemory(author, { body })
    b.host.putLocal(verified(memory.signed))
    const started = performance.now()
    const result = await a.network.fetch(b.network.peerId, [memory.id])
    const elapsed = performance.now() - started
    expect(result.records.map((r) => r.id)).toEqual([memory.id])
    expect(a.host.records.get(memory.id)?.bytes).toEqual(b.host.records.get(memory.id)?.bytes)
    return elapsed
  }

  it('adds the latency to each direction: a request and its answer take at least 2 × latency', async () => {
    const [a, b] = await pair({ latencyMs: 100, jitterMs: 20, lossPercent: 0, seed: 1 })
    for (let i = 0; i < 3; i++) expect(await timedFetch(a, b), `fetch ${i}`).toBeGreaterThanOrEqual(2 * (100 - 20))
  })

  it('turns loss into retransmission delays, never into lost or damaged bytes', async () => {
    const conditions = { latencyMs: 10, jitterMs: 0, lossPercent: 10, seed: 2 }
    const [a, b] = await pair(conditions)
    // Each fetch writes several chunks each way (stream selection, the request, the answer, the
    // close): at 10% loss, 16 fetches see no retransmission with probability below 0.9^64 ≈ 1e-3 even
    // counting two chunks each way only, and ~1e-6 for the real count. The loss is kept low so that no
    // segment is likely to be lost five times in a row, whose backed-off timeouts (≈ 7 s in all) would
    // approach fetch-v1's 10 s limit.
    const elapsed: number[] = []
    for (let i = 0; i < 16; i++) elapsed.push(await timedFetch(a, b))
    for (const ms of elapsed) expect(ms).toBeGreaterThanOrEqual(20)
    expect(Math.max(...elapsed)).toBeGreaterThanOrEqual(20 + retransmissionTimeoutMs(conditions))
  })

  it('delivers large records whole under loss: fetch-v1 re-hashes and verifies each', async () => {
    const [a, b] = await pair({ latencyMs: 5, jitterMs: 5, lossPercent: 5, seed: 3 })
    for (let i = 0; i < 3; i++) await timedFetch(a, b, `${i}`.padEnd(60_000, 'x'))
  })
})
