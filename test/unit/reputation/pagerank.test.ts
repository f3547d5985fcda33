import { describe, expect, it } from 'vitest'
import {
  buildTrustGraph, computeReputation, groupsOf, personalizedPageRank, votesOf, type TrustGraph, type Vote
} from '../../../src/reputation/index.js'
import type { AttestationRecord } from '../../../src/schema/index.js'
import { honest, honestGraph } from './graphs.js'

/** The textbook definition, dense and independent of the CSR code: π = (1−d)p + d·πM, M with dangling rows = p. */
function densePageRank (graph: TrustGraph, roots: number[], d: number): number[] {
  const n = graph.agents.length
  const p = Array.from({ length: n }, (_, i) => roots.includes(i) ? 1 / roots.length : 0)
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0))
  for (let u = 0; u < n; u++) {
    const start = graph.offsets[u] as number
    const end = graph.offsets[u + 1] as number
    const row = m[u] as number[]
    if (start === end) p.forEach((value, v) => { row[v] = value })
    for (let e = start; e < end; e++) row[graph.targets[e] as number] = graph.weights[e] as number
  }
  let pi = [...p]
  for (let k = 0; k < 500; k++) {
    pi = p.map((pv, v) => (1 - d) * pv + d * pi.reduce((sum, pu, u) => sum + pu * ((m[u] as number[])[v] as number), 0))
  }
  return pi
}

describe('attestation graph', () => {
  it('merges the votes of one pair, normalises rows, clamps disputes at 0 and drops self-votes', () => {
    const votes: Vote[] = [
      { witness: 'a', author: 'b', verdict: 'confirm' },
      { witness: 'a', author: 'b', verdict: 'partial' },
      { witness: 'a', author: 'c', verdict: 'confirm' },
      { witness: 'a', author: 'd', verdict: 'confirm' },
      { witness: 'a', author: 'd', verdict: 'dispute' },
      { witness: 'a', author: 'd', verdict: 'dispute' },
      { witness: 'b', author: 'b', verdict: 'confirm' }
    ]
    const graph = buildTrustGraph(groupsOf(votes))
    const a = graph.index.get('a') as number
    const edges = new Map<string, number>()
    for (let e = graph.offsets[a] as number; e < (graph.offsets[a + 1] as number); e++) edges.set(graph.agents[graph.targets[e] as number] as string, graph.weights[e] as number)
    expect(edges).toEqual(new Map([['b', 1.5 / 2.5], ['c', 1 / 2.5]]))
    const b = graph.index.get('b') as number
    expect(graph.offsets[b + 1]! - graph.offsets[b]!).toBe(0)
  })

  it('counts one vote per witness and memory, the newest, and never the author\'s own', () => {
    const at = (t: string, id: string, verdict: 'confirm' | 'dispute', witness = 'w'): { id: string, record: AttestationRecord } => ({
      id, record: { kind: 'attestation', version: 1, memory: 'm1', witness, attestation: verdict, witnessed_at: t }
    })
    const groups = votesOf([{
      author: 'author',
      attestations: [at('2026-02-05T11:00:00Z', 'x2', 'dispute'), at('2026-02-05T10:00:00Z', 'x1', 'confirm'), at('2026-02-05T12:00:00Z', 'x3', 'confirm', 'author'), at('2026-02-05T09:00:00Z', 'y', 'confirm', 'v')]
    }])
    expect(groups).toEqual([{ author: 'author', votes: [{ witness: 'w', verdict: 'dispute' }, { witness: 'v', verdict: 'confirm' }] }])
  })
})

describe('personalised PageRank', () => {
  it.each([[1, 0.85], [3, 0.85], [2, 0.5]])('matches the dense definition (%i roots, d = %f)', (rootCount, d) => {
    const graph = buildTrustGraph(groupsOf(honestGraph(40, 3, rootCount)), [])
    const roots = Array.from({ length: rootCount }, (_, i) => graph.index.get(honest(i * 7)) as number)
    const { rank } = personalizedPageRank(graph, roots, { damping: d })
    const reference = densePageRank(graph, roots, d)
    rank.forEach((value, i) => { expect(value, `agent ${graph.agents[i]}`).toBeCloseTo(reference[i] as number, 9) })
    expect(rank.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12)
  })

  it('gives a warm start the same answer', () => {
    const graph = buildTrustGraph(groupsOf(honestGraph(60, 4)))
    const root = [graph.index.get(honest(0)) as number]
    const cold = personalizedPageRank(graph, root)
    const warm = personalizedPageRank(graph, root, { initial: cold.rank })
    expect(warm.iterations).toBeLessThan(cold.iterations)
    warm.rank.forEach((v, i) => { expect(v).toBeCloseTo(cold.rank[i] as number, 9) })
  })
})

describe('reputation', () => {
  it('is 1 for a root, min(1, π·|R|/(1 − d)) for others, 0 without a path, 0.5 for everyone without roots', () => {
    // The root endorses 20 agents; a0 endorses b; x endorses the root but nobody endorses x.
    const votes: Vote[] = [
      ...Array.from({ length: 20 }, (_, i): Vote => ({ witness: 'root', author: `a${i}`, verdict: 'confirm' })),
      { witness: 'a0', author: 'b', verdict: 'confirm' },
      { witness: 'x', author: 'root', verdict: 'confirm' }
    ]
    const table = computeReputation(groupsOf(votes), ['root'])
    // By hand: π_a = d·π_r/20, π_b = d·π_a, and the dangling a1…a19 and b hand their mass back to the root.
    const d = 0.85
    const piRoot = (1 - d) / (1 - d * (19 * d / 20 + d * d / 20))
    expect(table.lookup('root')).toBe(1)
    expect(table.lookup('a3')).toBeCloseTo((d / 20) * piRoot / (1 - d), 9)
    expect(table.lookup('b')).toBeCloseTo((d * d / 20) * piRoot / (1 - d), 9)
    expect(table.lookup('x')).toBe(0)
    expect(table.lookup('stranger')).toBe(0)
    expect(table.describe('b').path).toEqual(['root', 'a0', 'b'])
    expect(table.describe('x').path).toBeNull()
    const unrooted = computeReputation(groupsOf(votes), [])
    expect(unrooted.rooted).toBe(false)
    expect(unrooted.lookup('x')).toBe(0.5)
  })
})
