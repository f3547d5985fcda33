import { describe, expect, it } from 'vitest'
import { createRandom } from '../../../bench/stats.js'
import { attackFlow, computeReputation, groupsOf, regionBound, type ReputationTable, type Vote } from '../../../src/reputation/index.js'
import { DEFAULT_TOLERANCE as TOLERANCE } from '../../../src/reputation/constants.js'
import { computeTrust, REPUTATION_POLICY_MAX_SLOPE, type AttestationEvidence } from '../../../src/trust/index.js'
import { attestationEvidence, memoryEvidence, NOW } from '../trust/fixtures.js'
import { honest, honestGraph, sybil, sybilRing } from './graphs.js'

/** What a power iteration stopped at L1 change TOLERANCE may still be from the stationary ranks: tol · d/(1 − d) < 10 · tol. */
const RESIDUAL = 10 * TOLERANCE

/*
 * docs/trust.md §Sybil resistance, shown: a Sybil ring without a trust path weighs nothing, and g
 * attack edges give all Sybils together at most the region bound derived there.
 */

const HONEST = 300
const SYBILS = 1000
const ROOT = honest(0)
/** The trust scores carry 4 decimals: each of the 5 contributions and the sum round by ≤ 0.00005. */
const ROUNDING_SLACK = 6 * 0.00005 * 2

/** A memory by `author` with the given votes, scored under isnad-reputation with `table`. */
function scoreOf (table: ReputationTable, author: string, votes: Array<[string, 'confirm' | 'dispute' | 'partial']>): number {
  const attestations: AttestationEvidence[] = votes.map(([witness, verdict], i) => attestationEvidence({ id: `a${i}`, witness, verdict }))
  return computeTrust({ memory: memoryEvidence({ author }), attestations, anchors: [], reputation: table.lookup, now: NOW }, { policy: 'isnad-reputation' }).points ?? NaN
}

/** The false memory of Sybil 0, confirmed by every other Sybil. */
const falseMemoryVotes = Array.from({ length: SYBILS - 1 }, (_, i): [string, 'confirm'] => [sybil(i + 1), 'confirm'])

describe('Sybil resistance of isnad-reputation', () => {
  const base: Vote[] = [...honestGraph(HONEST, 5), ...sybilRing(SYBILS), ...falseMemoryVotes.map(([w]): Vote => ({ witness: w, author: sybil(0), verdict: 'confirm' }))]
  const before = computeReputation(groupsOf(base), [ROOT])

  it('a ring of 1,000 Sybils confirming each other, with no path from the roots, stays at the self-reported level', () => {
    for (let i = 0; i < SYBILS; i++) expect(before.lookup(sybil(i)), sybil(i)).toBe(0)
    const selfReported = scoreOf(before, sybil(0), [])
    const confirmed = computeTrust({
      memory: memoryEvidence({ author: sybil(0) }),
      attestations: falseMemoryVotes.map(([witness], i) => attestationEvidence({ id: `a${i}`, witness })),
      anchors: [],
      reputation: before.lookup,
      now: NOW
    }, { policy: 'isnad-reputation' })
    expect(confirmed.factors.confirm_count).toBe(SYBILS - 1) // every confirm is counted …
    expect(confirmed.points).toBe(selfReported) // … and weighs nothing
    expect(confirmed.level).toBe('Unverified')
    // Under isnad-v0.1, which counts heads, the same ring reaches 0.6 (Anchored).
    expect(computeTrust({ memory: memoryEvidence({ author: sybil(0) }), attestations: confirmed.counted.attestations.map((a, i) => attestationEvidence({ id: `a${i}`, witness: a.witness })), anchors: [], now: NOW }).points).toBe(0.6)
  })

  it.each([1, 4, 16, 64])('%i attack edges give the Sybils at most the region bound, linear in the agents fooled', (g) => {
    const random = createRandom(100 + g)
    const attacked = new Set<string>()
    while (attacked.size < g) attacked.add(honest(1 + Math.floor(random() * (HONEST - 1))))
    // Each attacked honest agent is fooled into confirming a Sybil's memory.
    const attack: Vote[] = [...attacked].map((witness, k) => ({ witness, author: sybil(k % SYBILS), verdict: 'confirm' }))
    const after = computeReputation(groupsOf([...base, ...attack]), [ROOT])
    const region = new Set<number>()
    let total = 0
    after.graph.agents.forEach((did, i) => { if (did.startsWith('sybil')) { region.add(i); total += after.lookup(did) } })
    const bound = regionBound({ damping: after.damping, reference: after.reference, inflow: attackFlow(after.graph, after.rank, region) })
    expect(total).toBeGreaterThan(0) // the attack does something: the bound is not checked against nothing
    expect(total, `Σ rep(Sybils) with g = ${g}`).toBeLessThanOrEqual(bound.reputation + RESIDUAL / after.reference)
    // Linear in g: each fooled agent sends the Sybils at most its own walk.
    let fooled = 0
    for (const did of attacked) fooled += after.rank[after.graph.index.get(did) as number] as number
    expect(bound.rank).toBeLessThanOrEqual(after.damping * fooled / (1 - after.damping) + 1e-12)
    // The false memory its ring confirms gains at most the policy's slope per unit of Sybil reputation.
    const selfReported = scoreOf(after, sybil(0), [])
    expect(scoreOf(after, sybil(0), falseMemoryVotes) - selfReported).toBeLessThanOrEqual(REPUTATION_POLICY_MAX_SLOPE * 1.5 * bound.reputation + ROUNDING_SLACK)
  })

  it('one attack edge from a typical honest agent gives the Sybils less than one reputable witness', () => {
    const witness = honest(HONEST - 1)
    const after = computeReputation(groupsOf([...base, { witness, author: sybil(0), verdict: 'confirm' }]), [ROOT])
    const region = new Set<number>()
    after.graph.agents.forEach((did, i) => { if (did.startsWith('sybil')) region.add(i) })
    let total = 0
    for (const i of region) total += after.lookup(after.graph.agents[i] as string)
    expect(total).toBeLessThan(1)
    // The region bound is stated per unit of exposure (ρ_ref, docs/trust.md §4a): it holds, and is
    // looser than the reputations by about the exposure of the ring's agents.
    const bound = regionBound({ damping: after.damping, reference: after.reference, inflow: attackFlow(after.graph, after.rank, region) })
    expect(total).toBeLessThanOrEqual(bound.reputation + RESIDUAL / after.reference)
  })
})
