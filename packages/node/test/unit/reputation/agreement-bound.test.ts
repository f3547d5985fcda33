import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { attackFlow, computeReputation, DEFAULT_DAMPING, regionBound, type VoteGroup } from '../../../src/reputation/index.js'
import { DEFAULT_TOLERANCE as TOLERANCE } from '../../../src/reputation/constants.js'

/** What a power iteration stopped at L1 change TOLERANCE may still be from the stationary ranks: tol · d/(1 − d) < 10 · tol. */
const RESIDUAL = 10 * TOLERANCE

/*
 * The Sybil bound of the agreement walk (docs/trust.md §4). Any number of Sybil
 * identities, voting among themselves however they like, attached to the honest region by k attack
 * edges (an honest agent attesting a Sybil memory; a Sybil voting on an honest memory, which puts it
 * in a claim beside honest agents), get total reputation ≤ d·inflow/((1 − d)·π_ref) ≤ d·g·max π/((1 − d)·π_ref), g the honest
 * agents the attack edges touch.
 */

type Verdict = 'confirm' | 'partial' | 'dispute'
const verdict = fc.constantFrom<Verdict>('confirm', 'confirm', 'partial', 'dispute')

const world = fc.record({
  honest: fc.integer({ min: 4, max: 30 }),
  sybils: fc.integer({ min: 1, max: 300 }),
  roots: fc.integer({ min: 1, max: 3 }),
  honestMemories: fc.array(fc.record({ author: fc.nat(), votes: fc.array(fc.tuple(fc.nat(), verdict), { minLength: 1, maxLength: 5 }) }), { minLength: 3, maxLength: 40 }),
  sybilMemories: fc.array(fc.record({ author: fc.nat(), votes: fc.array(fc.tuple(fc.nat(), verdict), { maxLength: 12 }) }), { maxLength: 60 }),
  // Attack edges of both kinds.
  honestOnSybil: fc.array(fc.tuple(fc.nat(), fc.nat(), verdict), { maxLength: 6 }),
  sybilOnHonest: fc.array(fc.tuple(fc.nat(), fc.nat(), verdict), { maxLength: 6 })
})

describe('agreement walk: Sybil bound', () => {
  it('total Sybil reputation stays within the bound, for any Sybil behaviour and k attack edges', () => {
    fc.assert(fc.property(world, (w) => {
      const h = (i: number): string => `h${i % w.honest}`
      const s = (i: number): string => `s${i % w.sybils}`
      const groups: VoteGroup[] = []
      const honestGroups = w.honestMemories.map((m) => ({ author: h(m.author), votes: m.votes.map(([x, v]) => ({ witness: h(x), verdict: v })) }))
      const sybilGroups = w.sybilMemories.map((m) => ({ author: s(m.author), votes: m.votes.map(([x, v]) => ({ witness: s(x), verdict: v })) }))
      let k = 0
      for (const [u, m, v] of w.honestOnSybil) {
        const group = sybilGroups[m % Math.max(1, sybilGroups.length)]
        if (group === undefined) continue
        group.votes = [...group.votes, { witness: h(u), verdict: v }]
        k++
      }
      for (const [x, m, v] of w.sybilOnHonest) {
        const group = honestGroups[m % honestGroups.length] as VoteGroup
        group.votes = [...group.votes, { witness: s(x), verdict: v }]
        k++
      }
      groups.push(...honestGroups, ...sybilGroups)
      const roots = Array.from({ length: w.roots }, (_, i) => h(i))
      const table = computeReputation(groups, roots)
      const region = new Set<number>()
      let sybilReputation = 0
      table.graph.agents.forEach((did, i) => {
        if (!did.startsWith('s')) return
        region.add(i)
        sybilReputation += table.lookup(did)
      })
      const inflow = attackFlow(table.graph, table.rank, region)
      if (!(table.reference < Infinity)) { expect(sybilReputation).toBe(0); return }
      const bound = regionBound({ damping: DEFAULT_DAMPING, reference: table.reference, inflow })
      let regionRank = 0
      for (const i of region) regionRank += table.rank[i] as number
      expect(regionRank, 'π(S) ≤ d·inflow/(1 − d)').toBeLessThanOrEqual(bound.rank + RESIDUAL)
      // The power iteration stops at an L1 change of DEFAULT_TOLERANCE: RESIDUAL covers what is left, in units of π_ref.
      expect(sybilReputation, 'Σ rep(S) ≤ d·inflow/((1 − d)·π_ref)').toBeLessThanOrEqual(bound.reputation + RESIDUAL / table.reference)
      // In attack edges: inflow ≤ Σ π(u) over the honest agents an attack edge touches.
      let touchedRank = 0
      table.graph.agents.forEach((did, u) => {
        if (did.startsWith('s')) return
        if (attackFlow(table.graph, table.rank, region) === 0) return
        const alone = new Set(region)
        let reaches = false
        for (let e = table.graph.offsets[u] as number; e < (table.graph.offsets[u + 1] as number); e++) if (alone.has(table.graph.targets[e] as number)) reaches = true
        for (let m = table.graph.agentClaimOffsets[u] as number; m < (table.graph.agentClaimOffsets[u + 1] as number); m++) {
          const c = table.graph.agentClaims[m] as number
          for (let x = table.graph.claims.offsets[c] as number; x < (table.graph.claims.offsets[c + 1] as number); x++) if (alone.has(table.graph.claims.members[x] as number)) reaches = true
        }
        if (reaches) touchedRank += table.rank[u] as number
      })
      expect(inflow, 'inflow ≤ Σ π over the honest agents attack edges touch').toBeLessThanOrEqual(touchedRank + 1e-12)
      if (k === 0) expect(sybilReputation, 'no attack edge: the Sybils weigh nothing').toBe(0)
    }), { numRuns: 300 })
  })

  it('a ring of 1,000 Sybils agreeing with each other on every memory, with one attack edge, stays under the bound', () => {
    const groups: VoteGroup[] = []
    for (let i = 0; i < 10; i++) groups.push({ author: `h${i}`, votes: [{ witness: `h${(i + 1) % 10}`, verdict: 'confirm' }, { witness: `h${(i + 2) % 10}`, verdict: 'confirm' }] })
    for (let i = 0; i < 1000; i++) groups.push({ author: `s${i}`, votes: [1, 2, 3].map((j) => ({ witness: `s${(i + j) % 1000}`, verdict: 'confirm' as const })) })
    // The attack edge: a Sybil confirms an honest memory beside honest witnesses.
    groups.push({ author: 'h0', votes: [{ witness: 'h5', verdict: 'confirm' }, { witness: 's0', verdict: 'confirm' }] })
    const table = computeReputation(groups, ['h0'])
    let total = 0
    const region = new Set<number>()
    table.graph.agents.forEach((did, i) => { if (did.startsWith('s')) { region.add(i); total += table.lookup(did) } })
    const bound = regionBound({ damping: DEFAULT_DAMPING, reference: table.reference, inflow: attackFlow(table.graph, table.rank, region) })
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(bound.reputation)
  })
})
