import { describe, expect, it } from 'vitest'
import { createRandom } from '../../../bench/stats.js'
import { computeReputation, groupsOf, sybilBound, type ReputationTable, type Vote } from '../../../src/reputation/index.js'
import { computeTrust, REPUTATION_POLICY_MAX_SLOPE, type AttestationEvidence } from '../../../src/trust/index.js'
import { attestationEvidence, memoryEvidence, NOW } from '../trust/fixtures.js'
import { honest, honestGraph, sybil, sybilRing } from './graphs.js'

/*
 * docs/trust.md §Sybil resistance, shown: a Sybil ring without a trust path weighs nothing, and g
 * attack edges move every reputation and every trust score by at most the bound derived there.
 */

const HONEST = 300
const SYBILS = 1000
const ROOT = honest(0)
/** The trust scores carry 4 decimals: each of the 5 contributions and the sum round by ≤ 0.00005. */
const ROUNDING_SLACK = 6 * 0.00005 * 2

/** A memory by `author` with the given votes, scored under isnad-reputation with `table`. */
function scoreOf (table: ReputationTable, author: string, votes: Array<[string, 'confirm' | 'dispute' | 'partial']>): number {
  const attestations: AttestationEvidence[] = votes.map(([witness, verdict], i) => attestationEvidence({ id: `a${i}`, witness, verdict }))
  return computeTrust({ memory: memoryEvidence({ author }), attestations, anchors: [], reputation: table.lookup, now: NOW }, { policy: 'isnad-reputation' }).score
}

/** The false memory of Sybil 0, confirmed by every other Sybil. */
const falseMemoryVotes = Array.from({ length: SYBILS - 1 }, (_, i): [string, 'confirm'] => [sybil(i + 1), 'confirm'])

/** Memories whose scores the attack might move: honest ones with honest and Sybil witnesses, and the false one. */
function probeScores (table: ReputationTable): number[] {
  return [
    scoreOf(table, sybil(0), falseMemoryVotes),
    scoreOf(table, honest(5), [[honest(1), 'confirm'], [honest(2), 'confirm'], [honest(3), 'partial'], [sybil(3), 'dispute'], [sybil(4), 'dispute']]),
    scoreOf(table, honest(9), [[honest(10), 'confirm'], [sybil(7), 'confirm'], [sybil(8), 'confirm'], [sybil(9), 'confirm']]),
    scoreOf(table, sybil(11), [[honest(12), 'confirm'], [sybil(12), 'confirm']]),
    scoreOf(table, honest(20), [])
  ]
}

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
    expect(confirmed.score).toBe(selfReported) // … and weighs nothing
    expect(confirmed.level).toBe('Unverified')
    // Under isnad-v0.1, which counts heads, the same ring reaches 0.6 (Anchored).
    expect(computeTrust({ memory: memoryEvidence({ author: sybil(0) }), attestations: confirmed.counted.attestations.map((a, i) => attestationEvidence({ id: `a${i}`, witness: a.witness })), anchors: [], now: NOW }).score).toBe(0.6)
  })

  it.each([1, 4, 16, 64])('%i attack edges move every reputation and trust score by at most the bound', (g) => {
    const random = createRandom(100 + g)
    const attacked = new Set<string>()
    while (attacked.size < g) attacked.add(honest(1 + Math.floor(random() * (HONEST - 1))))
    // Each attacked honest agent is fooled into confirming a Sybil's memory.
    const attack: Vote[] = [...attacked].map((witness, k) => ({ witness, author: sybil(k % SYBILS), verdict: 'confirm' }))
    const after = computeReputation(groupsOf([...base, ...attack]), [ROOT])
    const attackedRanks = [...attacked].map((did) => before.rank[before.graph.index.get(did) as number] as number)
    const bound = sybilBound({ damping: before.damping, rootCount: 1, attackedRanks, scoreSlope: REPUTATION_POLICY_MAX_SLOPE })

    const agents = new Set([...before.graph.agents, ...after.graph.agents])
    let moved = 0
    for (const did of agents) moved += Math.abs(after.lookup(did) - before.lookup(did))
    expect(moved, `Σ|Δrep| with g = ${g}`).toBeLessThanOrEqual(bound.reputationL1 + 1e-9)
    expect(moved).toBeGreaterThan(0) // the attack does something: the bound is not checked against nothing

    const scoresBefore = probeScores(before)
    probeScores(after).forEach((score, i) => {
      expect(Math.abs(score - (scoresBefore[i] as number)), `memory ${i} with g = ${g}`).toBeLessThanOrEqual(bound.trustScore + ROUNDING_SLACK)
    })
    // Proportional to g: never more than g times the bound of the most central attacked agent alone.
    const worst = Math.max(...attackedRanks)
    const single = sybilBound({ damping: before.damping, rootCount: 1, attackedRanks: [worst], scoreSlope: REPUTATION_POLICY_MAX_SLOPE })
    expect(bound.trustScore).toBeLessThanOrEqual(g * single.trustScore + 1e-12)
  })

  it('one attack edge from a typical honest agent moves no score by more than a few hundredths', () => {
    const witness = honest(HONEST - 1)
    const rank = before.rank[before.graph.index.get(witness) as number] as number
    const bound = sybilBound({ damping: before.damping, rootCount: 1, attackedRanks: [rank], scoreSlope: REPUTATION_POLICY_MAX_SLOPE })
    expect(bound.trustScore).toBeLessThan(0.1)
  })
})
