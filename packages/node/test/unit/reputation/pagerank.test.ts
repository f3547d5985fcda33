import { describe, expect, it } from 'vitest'
import {
  EVIDENCE_PRIOR, buildTrustGraph, computeReputation, groupsOf, personalizedPageRank, votesOf, type TrustGraph, type Vote, type VoteGroup
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
    const total = graph.outWeight[u] as number
    if (total === 0) p.forEach((value, v) => { row[v] = value })
    for (let e = start; e < end; e++) row[graph.targets[e] as number] = graph.weights[e] as number
    // Agreement: AGREEMENT_WEIGHT (1) per claim of ≥ 2 members u is in, split over its other members.
    const { claims } = graph
    for (let c = 0; c + 1 < claims.offsets.length; c++) {
      const members = Array.from(claims.members.subarray(claims.offsets[c], claims.offsets[c + 1]))
      if (members.length < 2 || !members.includes(u)) continue
      for (const v of members) if (v !== u) row[v] = (row[v] as number) + 1 / total / (members.length - 1)
    }
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
    // a's out-weight: endorsements 1.5 (b) + 1 (c) + 0 (d: disputes cancel). Every claim is a's
    // alone (one vote per group, and an author is never a member of its memory's claims), so a
    // shares none.
    expect(graph.outWeight[a]).toBe(2.5)
    expect(edges).toEqual(new Map([['b', 1.5 / 2.5], ['c', 1 / 2.5]]))
    // b endorses nobody (its self-vote is dropped) but acknowledges a, which confirmed its memory:
    // one walk edge b → a of ACKNOWLEDGE_WEIGHT 1 that is no endorsement (strength 0).
    const b = graph.index.get('b') as number
    expect(graph.offsets[b + 1]! - graph.offsets[b]!).toBe(1)
    expect(graph.agents[graph.targets[graph.offsets[b]!]!]).toBe('a')
    expect(graph.strengths[graph.offsets[b]!]).toBe(0)
    expect(graph.outWeight[b]).toBe(1)
    // d acknowledges a too (a confirmed it once), although a's disputes cancel its endorsement of d.
    const d = graph.index.get('d') as number
    expect(graph.outWeight[d]).toBe(1)
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
  it('is 1 for a root, min(1, (π/x)/ρ_ref) for others, 0 without a path, 0.5 for everyone without roots', () => {
    // The root confirms one memory of each of 20 agents; a0 confirms one memory of b.
    const star: Vote[] = Array.from({ length: 20 }, (_, i): Vote => ({ witness: 'root', author: `a${i}`, verdict: 'confirm' }))
    const table = computeReputation(groupsOf([...star, { witness: 'a0', author: 'b', verdict: 'confirm' }]), ['root'])
    // By hand: the root endorses each a_i (out-weight 20, no claim it shares); each a_i acknowledges
    // the root (ACKNOWLEDGE_WEIGHT 1); a0 also endorses b, and b acknowledges a0. With x = d·π_r/20:
    // π_ai = x, π_a0 = x + d·π_b, π_b = d·π_a0/2, so π_a0 = x/(1 − d²/2) and π_b = (d/2)·π_a0.
    // Exposure (out-weight, at least 1): a_i 1, a0 2, b 1; rank per exposure: a_i x, a0 π_a0/2 ≈ 0.78x,
    // b π_b ≈ 0.67x. Non-root mass 19x + π_a0 + π_b ≈ 21.23x; in that order the agents reach 97% of it
    // (REFERENCE_MASS_SHARE, 20.59x) only at b (19x + π_a0 ≈ 20.57x), so ρ_ref = π_b: everyone stands at 1.
    // The evidence factor E/(E + k) (k = EVIDENCE_PRIOR): each a_i's evidence is the root's one
    // endorsement (standing 1 × strength 1); a0's also b's acknowledgement (1 × 1); b's is a0's
    // endorsement (1 × 1). Nobody shares a claim, so there is no agreement term.
    const d = 0.85
    const k = EVIDENCE_PRIOR
    expect(table.lookup('root')).toBe(1)
    expect(table.lookup('a3')).toBeCloseTo(1 / (1 + k), 7) // the walk stops at L1 change 1e-8
    expect(table.lookup('a0')).toBeCloseTo(2 / (2 + k), 7)
    expect(table.lookup('b')).toBeCloseTo(1 / (1 + k), 7)
    expect(table.reference).toBeCloseTo(table.rank[table.graph.index.get('b') as number] as number, 15)
    expect(table.rank[table.graph.index.get('b') as number]).toBeCloseTo((d / 2) * (table.rank[table.graph.index.get('a0') as number] as number), 7)
    expect(table.lookup('stranger')).toBe(0)
    expect(table.describe('a3').path).toEqual(['root', 'a3'])
    expect(table.describe('b').path).toEqual(['root', 'a0', 'b'])
    // z disputes a memory of a1 from outside: no claim it shares with anyone reached, no path.
    const withZ = computeReputation(groupsOf([...star, { witness: 'z', author: 'a1', verdict: 'dispute' }]), ['root'])
    expect(withZ.lookup('z')).toBe(0)
    expect(withZ.describe('z').path).toBeNull()
  })

  it('keeps a stranger who confirmed one of the node\'s own memories below a counted confirm (the evidence factor)', () => {
    // By hand: s confirms the root's memory; the root's only out-edge is its acknowledgement of s, so s
    // is the only non-root agent reached (π_ref = π_s: standing 1). Its evidence is that one
    // acknowledgement (root standing 1 × 1): reputation 1/(1 + k) = 0.4 with k = 1.5, below the 0.5
    // a confirm needs to count (MIN_CONFIRM_WEIGHT), where the relative standing alone gave 1.
    const table = computeReputation(groupsOf([{ witness: 's', author: 'root', verdict: 'confirm' }]), ['root'])
    expect(table.lookup('s')).toBeCloseTo(1 / (1 + EVIDENCE_PRIOR), 12)
    expect(table.lookup('s')).toBeLessThan(0.5)
  })

  it('credits a witness who agrees with the root and debits one the root contradicts', () => {
    const memory = (author: string, votes: Array<[string, 'confirm' | 'dispute']>): VoteGroup => ({ author, votes: votes.map(([witness, verdict]) => ({ witness, verdict })) })
    const groups: VoteGroup[] = [
      // w never authors: it agrees with the root on two memories.
      memory('p', [['root', 'confirm'], ['w', 'confirm']]),
      memory('q', [['root', 'confirm'], ['w', 'confirm']]),
      // v agrees with the root once and contradicts it once.
      memory('s', [['root', 'confirm'], ['v', 'confirm']]),
      memory('t', [['root', 'confirm'], ['v', 'dispute']])
    ]
    const table = computeReputation(groups, ['root'])
    expect(table.lookup('w'), 'a witness that never authors earns standing').toBeGreaterThan(0.3)
    expect(table.describe('w').agreement?.factor, 'nobody contradicted w').toBe(1)
    const v = table.describe('v').agreement
    // v: agreed with the root (1), contradicted by the root (1); authors are no members of their
    // memories' claims: factor A / (A + 3X) = 1/4.
    expect(v?.factor).toBeCloseTo(1 / 4, 12)
    expect(v?.factor).toBeCloseTo((v?.agreed ?? 0) / ((v?.agreed ?? 0) + 3 * (v?.contradicted ?? 0)), 12)
    expect(table.lookup('v')).toBeLessThan(table.lookup('w') / 3)
    const unrooted = computeReputation(groups, [])
    expect(unrooted.rooted).toBe(false)
    expect(unrooted.lookup('v')).toBe(0.5)
  })
})
