import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  agentLines, computeReputation, rootLines, rootsHeadline, settingOfTable, scoreWithSetting, type TrustRoot, type VoteGroup
} from '../../../src/reputation/index.js'
import { TrustResultSchema, TRUST_POLICY_NAMES, type AnchorState, type AttestationVerdict, type TrustPolicyName } from '../../../src/schema/index.js'
import { explanationLines, formatTrustScore, type AnchorEvidence, type AttestationEvidence } from '../../../src/trust/index.js'
import { falsehoods, type Case } from '../../fixtures/explanation-checker.js'
import { anchorEvidence, attestationEvidence, cid, CREATED, did, memoryEvidence, minutes, NOW, T0 } from './fixtures.js'

/*
 * Every sentence of a trust explanation is true of the numbers beside it (docs/trust.md §6). Nodes
 * are generated (roots of either kind, a history of votes the pure reputation walk ranks, a policy),
 * then a memory's evidence; the result is scored through the node's one entry point
 * (scoreWithSetting) and rendered by the same text functions the CLI and the dashboard use
 * (explanationLines, rootsHeadline, rootLines, agentLines). Each rendered line must match one of the
 * sentence forms below, and what it states is checked against the result's fields, the roots and
 * the agents' reputations: a line no form knows fails the test.
 */

const CASES = 10_000
const AGENTS = ['author', 'w0', 'w1', 'w2', 'w3', 'w4'].map(did)
const AUTHOR = AGENTS[0] as string
const MEMORY = cid('mem')
const ANCHORER = did('anchorer')
const IDS = Array.from({ length: 40 }, (_, i) => cid(`truth-${i}`))
const VERDICTS: readonly AttestationVerdict[] = ['confirm', 'dispute', 'partial']

interface Node {
  policy: TrustPolicyName
  roots: TrustRoot[]
  history: VoteGroup[]
}

const root = fc.record({ agent: fc.nat({ max: AGENTS.length - 1 }), own: fc.boolean() })
const node: fc.Arbitrary<Node> = fc.record({
  policy: fc.constantFrom(...TRUST_POLICY_NAMES),
  roots: fc.uniqueArray(root, { maxLength: 3, selector: (r) => r.agent }),
  history: fc.array(fc.record({
    author: fc.nat({ max: AGENTS.length - 1 }),
    votes: fc.uniqueArray(fc.record({ witness: fc.nat({ max: AGENTS.length - 1 }), verdict: fc.constantFrom(...VERDICTS) }), { maxLength: 4, selector: (v) => v.witness })
  }), { maxLength: 10 })
}).map(({ policy, roots, history }) => ({
  policy,
  // Own agents first, as the node lists them.
  roots: [...roots].sort((a, b) => Number(b.own) - Number(a.own)).map(({ agent, own }): TrustRoot => own
    ? { did: AGENTS[agent] as string, source: 'own-agent' }
    : { did: AGENTS[agent] as string, source: 'added', added_at: '2026-02-01T00:00:00.000Z' }),
  history: history.map(({ author, votes }) => ({
    author: AGENTS[author] as string,
    votes: votes.filter((v) => v.witness !== author).map((v) => ({ witness: AGENTS[v.witness] as string, verdict: v.verdict }))
  }))
}))

const mostly = <T>(usual: T, rare: T): fc.Arbitrary<T> => fc.oneof({ arbitrary: fc.constant(usual), weight: 5 }, { arbitrary: fc.constant(rare), weight: 1 })
const offset = fc.integer({ min: -3, max: 8 }).map((n) => T0 + minutes(10 * n))

const evidence = fc.record({
  signatureValid: mostly(true, false),
  attestations: fc.array(fc.record({
    witness: fc.constantFrom(...AGENTS),
    verdict: fc.constantFrom(...VERDICTS),
    at: offset,
    signatureValid: mostly(true, false),
    drawFraction: fc.option(fc.double({ min: 0, max: 0.999, noNaN: true }), { nil: undefined })
  }), { maxLength: 8 }),
  anchors: fc.array(fc.record({
    reference: fc.constantFrom('r0', 'r1', 'r2'),
    at: offset,
    state: fc.constantFrom<AnchorState>('verified', 'verified', 'mismatch')
  }), { maxLength: 3 }),
  privateCheck: fc.constantFrom(undefined, 'asked' as const, 'not-sampled' as const)
})


type Evidence = typeof evidence extends fc.Arbitrary<infer T> ? T : never

function caseOf (n: Node, e: Evidence): Case {
  const table = n.roots.length === 0 ? undefined : computeReputation(n.history, n.roots.map((r) => r.did))
  const attestations = e.attestations.map((a, i): AttestationEvidence => {
    const item = attestationEvidence({ id: IDS[i] as string, witness: a.witness, verdict: a.verdict, at: a.at, memory: MEMORY, signatureValid: a.signatureValid })
    return a.drawFraction === undefined ? item : { ...item, drawFraction: a.drawFraction }
  })
  const anchors = e.anchors.map((a, i): AnchorEvidence => anchorEvidence({ id: IDS[20 + i] as string, reference: a.reference, at: a.at, memory: MEMORY, state: a.state, anchoredBy: ANCHORER }))
  const result = scoreWithSetting({
    memory: memoryEvidence({ id: MEMORY, author: AUTHOR, createdAt: CREATED, signatureValid: e.signatureValid }),
    attestations,
    anchors,
    now: NOW,
    ...(e.privateCheck === undefined ? {} : { privateCheck: e.privateCheck })
  }, settingOfTable(n.policy, table))
  const dids = [...new Set([AUTHOR, ...result.counted.attestations.map((a) => a.witness), ...result.refused.attestations.map((a) => a.witness)])]
  const agents = dids.map((d) => table === undefined ? { did: d, reputation: 0.5, rank: 0, root: false, path: null } : table.describe(d))
  // What `trust explain` prints: the result, the roots' headline, each agent; and `trust root list`.
  const lines = [
    ...explanationLines(result).map((l) => l.text),
    rootsHeadline(n.roots),
    ...agents.flatMap(agentLines),
    ...rootLines(n.roots)
  ]
  return { result, roots: n.roots, agents, lines }
}

describe('every sentence of an explanation is true of its fields', () => {
  it(`holds for ${CASES} generated nodes and memories, under every policy`, () => {
    const seen = new Set<string>()
    fc.assert(fc.property(node, evidence, (n, e) => {
      const c = caseOf(n, e)
      expect(TrustResultSchema.safeParse(c.result).success).toBe(true)
      expect(falsehoods(c)).toEqual([])
      seen.add(`${c.result.policy}/${c.result.level}/${c.result.level_basis?.set_by ?? ''}`)
    }), { numRuns: CASES, seed: 20261206 })
    // The generator reaches every policy and the rules that set a level, held scores included.
    for (const policy of TRUST_POLICY_NAMES) {
      for (const rule of ['evidence', 'both']) expect([...seen].some((k) => k.startsWith(`${policy}/`) && k.endsWith(`/${rule}`)), `${policy} ${rule}`).toBe(true)
    }
    expect([...seen].some((k) => k.endsWith('/insufficient'))).toBe(true)
    expect([...seen].some((k) => k.includes('/Attested/'))).toBe(true)
  }, 120_000)

  it('a false sentence is caught: the checker is not vacuous', () => {
    const c = caseOf({ policy: 'isnad-reputation', roots: [{ did: AUTHOR, source: 'own-agent' }], history: [] }, {
      signatureValid: true, attestations: [], anchors: [], privateCheck: undefined
    })
    expect(falsehoods(c)).toEqual([])
    expect(falsehoods({ ...c, lines: ['reputation: this node has no trust roots (no agent of its own, none added), so every agent has 0.5 (x)'] })).toHaveLength(1)
    expect(falsehoods({ ...c, lines: [`trust ${formatTrustScore(c.result.points ?? 0)} Unverified  (policy isnad-reputation, computed ${c.result.computed_at})`] })).toHaveLength(1)
    expect(falsehoods({ ...c, lines: ['something nobody checks'] })).toHaveLength(1)
  })
})
