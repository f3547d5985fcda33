import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  agentLines, computeReputation, rootLines, rootsHeadline, settingOfTable, scoreWithSetting, type AgentReputation, type TrustRoot, type VoteGroup
} from '../../../src/reputation/index.js'
import { TrustResultSchema, TRUST_POLICY_NAMES, type AnchorState, type AttestationVerdict, type TrustLevel, type TrustPolicyName, type TrustResult } from '../../../src/schema/index.js'
import {
  explanationLines, formatTrustScore, levelRank, roundTrustScore, topOfLevel, trustLevelOf, type AnchorEvidence, type AttestationEvidence
} from '../../../src/trust/index.js'
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

interface Case {
  result: TrustResult
  roots: TrustRoot[]
  agents: AgentReputation[]
  lines: string[]
}

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

const num = String.raw`(-?\d+(?:\.\d+)?)`
const LEVEL = String.raw`(Unverified|Attested|Anchored|Consensus)`
const close = (a: number, b: number, tolerance = 0.0001): boolean => Math.abs(a - b) <= tolerance + 1e-12

/** One sentence form: a pattern and what must hold of the case when a line matches it. */
type Check = (m: RegExpMatchArray, c: Case) => string | undefined
const FORMS: Array<[RegExp, Check]> = [
  [new RegExp(String.raw`^trust (\d\.\d\d) ${LEVEL}  \(policy (\S+), computed (\S+)\)$`), (m, { result }) => {
    if (m[1] !== formatTrustScore(result.score)) return 'printed score is not the score'
    if (m[2] !== result.level) return 'printed level is not the level'
    if (trustLevelOf(Number(m[1])) !== result.level) return 'the printed score is in another band than the level'
    if (trustLevelOf(result.score) !== result.level) return 'the score is in another band than the level'
    return m[3] === result.policy && m[4] === result.computed_at ? undefined : 'policy or time differ'
  }],
  [/^too little to judge \((NO_ROOTS|NO_PATH)\): (.*)$/, (m, { result, roots }) => {
    if (result.insufficient?.code !== m[1]) return 'insufficient code differs'
    if (result.level !== 'Unverified') return 'too little to judge but not Unverified'
    if ((m[1] === 'NO_ROOTS') !== (roots.length === 0)) return 'NO_ROOTS said while the node has roots (or the reverse)'
    return undefined
  }],
  [new RegExp(String.raw`^level: (.*)$`), (m, c) => checkLevel(m[1] as string, c)],
  [/^witnesses: (.*)$/, (m, { result }) => {
    const s = result.witness_selection
    if (s === undefined) return 'witness line without witness_selection'
    const drawn = /(\d+) drawn witness(?:es)? answered/.exec(m[1] as string)
    if (drawn !== null && Number(drawn[1]) !== s.drawn) return 'drawn count differs'
    if (/no drawn witness answered/.test(m[1] as string) && s.drawn !== 0) return 'says no drawn witness, has some'
    if (/private check/.test(m[1] as string) && /this node made a private check/.test(m[1] as string) && s.private_check !== 'asked') return 'private check not asked'
    return undefined
  }],
  [new RegExp(String.raw`^([+-]\d+\.\d\d)  (.*)$`), (m, c) => checkContribution(m[1] as string, m[2] as string, c)],
  [new RegExp(String.raw`^points clamped from ${num} to \[0, 1\]$`), (m, { result }) =>
    result.clamped === true && result.unclamped_score === Number(m[1]) ? undefined : 'clamp differs'],
  [/^accepted (confirm|dispute|partial) +(\S+)(?:  \((.*)\))?$/, (m, c) => checkAccepted(m[1] as string, m[2] as string, m[3], c)],
  [/^accepted anchor +(\S+) (\S+)$/, (m, { result }) =>
    result.counted.anchors.some((a) => a.type === m[1] && a.reference === m[2]) ? undefined : 'anchor not accepted'],
  [/^refused {2}attestation (\S+) by (\S+): (\S+) (.*)$/, (m, { result }) =>
    result.refused.attestations.some((a) => a.id === m[1] && a.witness === m[2] && a.code === m[3]) ? undefined : 'refusal not in the result'],
  [/^refused {2}anchor (\S+): (\S+) (.*)$/, (m, { result }) =>
    result.refused.anchors.some((a) => a.id === m[1] && a.code === m[2]) ? undefined : 'refusal not in the result'],
  [/^reputation: this node has no trust roots \(no agent of its own, none added\), so every agent has 0\.5 /, (_m, { roots, agents }) =>
    roots.length === 0 && agents.every((a) => a.reputation === 0.5) ? undefined : 'says no roots'],
  [/^no trust roots \(no agent of its own, none added\): every agent has reputation 0\.5 /, (_m, { roots }) => roots.length === 0 ? undefined : 'root list says none'],
  [/^reputation from (\d+) trust roots?: (\d+) own agents? of this node, (\d+) added by the operator$/, (m, { roots }) =>
    Number(m[1]) === roots.length && Number(m[2]) === roots.filter((r) => r.source === 'own-agent').length && Number(m[3]) === roots.filter((r) => r.source === 'added').length
      ? undefined
      : 'root counts differ'],
  [/^(did:key:\S+) {2}own agent of this node$/, (m, { roots }) => roots.some((r) => r.did === m[1] && r.source === 'own-agent') ? undefined : 'not an own-agent root'],
  [/^(did:key:\S+) {2}added (\S+)$/, (m, { roots }) => roots.some((r) => r.did === m[1] && r.source === 'added' && r.added_at === m[2]) ? undefined : 'not an added root'],
  [new RegExp(String.raw`^(did:key:\S+)  reputation (\d\.\d{4})  \((.*)\)  rank (\S+)$`), (m, c) => checkAgent(m[1] as string, Number(m[2]), m[3] as string, c)],
  [/^no trust path from a root$/, () => undefined],
  [/^path from a root: (.*)$/, (m, { roots }) => roots.some((r) => r.did === (m[1] as string).split(' → ')[0]) ? undefined : 'path does not start at a root']
]

function checkLevel (text: string, { result }: Case): string | undefined {
  const basis = result.level_basis
  if (basis === undefined || result.points === undefined) return 'level line without basis or points'
  const held = /; the score is held at (\d\.\d+), the top of (\w+)$/.exec(text)
  if (held !== null) {
    if (Number(held[1]) !== result.score || held[2] !== result.level || topOfLevel(result.level) !== result.score) return 'held score differs'
    if (!(result.score < result.points)) return 'held, but not below the points'
  } else if (result.score !== result.points) return 'score below the points but the line does not say so'
  if (text.startsWith('too little to judge: ')) return result.insufficient === undefined ? 'too little to judge without insufficient' : undefined
  const m = new RegExp(String.raw`^points ${num} are in the ${LEVEL} band(, and the evidence allows ${LEVEL}: |, but the evidence allows only ${LEVEL}: |; the evidence would allow ${LEVEL} \()(.*)$`).exec(text)
  if (m === null) return 'unknown level sentence'
  if (Number(m[1]) !== result.points || m[2] !== trustLevelOf(result.points) || m[2] !== basis.score_level) return 'points band differs'
  const evidenceLevel = (m[4] ?? m[5] ?? m[6]) as TrustLevel
  if (evidenceLevel !== basis.evidence_level) return 'evidence level differs'
  if (m[4] !== undefined && !(evidenceLevel === m[2] && result.level === evidenceLevel)) return '"and" but the bands differ'
  if (m[5] !== undefined && !(levelRank(evidenceLevel) < levelRank(m[2] as TrustLevel) && result.level === evidenceLevel)) return '"only" but the evidence is not lower'
  if (m[6] !== undefined && !(levelRank(evidenceLevel) > levelRank(m[2] as TrustLevel) && result.level === m[2])) return '"would allow" but the evidence is not higher'
  return checkEvidenceReason(m[7] as string, result)
}

function checkEvidenceReason (text: string, result: TrustResult): string | undefined {
  const accepted = result.counted.attestations.filter((a) => a.verdict === 'confirm').length
  const anchors = result.counted.anchors.length
  if (text.startsWith('no confirm counts as a witness')) {
    if (result.level_basis?.evidence_level !== 'Unverified') return 'no witness but the evidence band is above Unverified'
  } else {
    const w = /^(\d+) confirms? counts? as (?:a )?witness(?:es)?/.exec(text)
    if (w === null) return 'unknown evidence sentence'
    if (!(Number(w[1]) >= 1 && Number(w[1]) <= accepted)) return `${w[1]} witnesses of ${accepted} accepted confirms`
  }
  if (/but no verified anchor/.test(text) && anchors !== 0) return 'says no anchor, has some'
  const a = /and (\d+) verified anchors?/.exec(text)
  if (a !== null && Number(a[1]) !== anchors) return 'anchor count differs'
  const weight = /weigh (\d+(?:\.\d+)?) in all/.exec(text)
  if (weight !== null) {
    const sum = result.counted.attestations.reduce((s, x) => s + weightFromNote(x.note), 0)
    if (!close(Number(weight[1]), sum, 0.0005)) return `confirm weight ${weight[1]} but the notes sum to ${sum}`
  }
  return undefined
}

/** The weight a support note states: a confirm's reputation, a partial's half; 0 for the rest. */
function weightFromNote (note: string | undefined): number {
  if (note === undefined || note.startsWith('not counted')) return 0
  const partial = /^partial: half a confirm, weight 0\.5 × reputation \S+ = (\S+?);?(?: |$)/.exec(note)
  if (partial !== null) return Number(partial[1])
  const confirm = /^confirm weighted by reputation (\d+(?:\.\d+)?)/.exec(note)
  return confirm === null ? 0 : Number(confirm[1])
}

function checkContribution (printed: string, reason: string, { result }: Case): string | undefined {
  const c = result.contributions.find((x) => x.reason === reason)
  if (c === undefined) return 'no such contribution'
  if (printed !== `${c.points >= 0 ? '+' : ''}${c.points.toFixed(2)}`) return 'printed points differ'
  const f = result.factors
  const count = /^(no|\d+) accepted (confirm|anchor|dispute)s?/.exec(reason)
  if (count !== null) {
    const n = count[1] === 'no' ? 0 : Number(count[1])
    const field = count[2] === 'confirm' ? f.confirm_count : count[2] === 'anchor' ? f.anchor_count : f.dispute_count
    if (n !== field) return `${n} accepted ${count[2]}s, the factors say ${field}`
  }
  const rep = /^0\.2 × author reputation (\S+)$/.exec(reason)
  if (rep !== null && (Number(rep[1]) !== roundTrustScore(f.author_reputation) || !close(c.points, 0.2 * f.author_reputation))) return 'author reputation differs'
  if (/signature on the memory verifies$/.test(reason) && !(f.signature_valid && c.points === 0.2)) return 'signature said to verify'
  if (/does not verify/.test(reason) && f.signature_valid) return 'signature said not to verify'
  const disputes = /Σ rep = (\S+) × −0\.15$/.exec(reason)
  if (disputes !== null && !close(c.points, -0.15 * Number(disputes[1]), 0.0001)) return 'dispute points differ'
  const confirms = /^reputation-weighted confirms C = (\S+):/.exec(reason)
  if (confirms !== null) {
    const cw = Number(confirms[1])
    if (!close(c.points, 0.2 * Math.min(1, cw) + 0.1 * Math.min(1, Math.max(0, (cw - 1) / 2)), 0.0002)) return 'confirm points differ from C'
  }
  return undefined
}

function checkAccepted (verdict: string, witness: string, note: string | undefined, { result, agents }: Case): string | undefined {
  const a = result.counted.attestations.find((x) => x.witness === witness && x.verdict === verdict)
  if (a === undefined) return 'not an accepted attestation'
  if (note !== a.note && !(note === undefined && a.note === undefined)) return 'note differs'
  const shown = agents.find((x) => x.did === witness)
  const rep = note === undefined ? null : /reputation (\d+(?:\.\d+)?)(?:[;)]| =|$)/.exec(note)
  if (rep !== null && shown !== undefined && !close(Number(rep[1]), shown.reputation, 0.00005)) {
    return `the note says reputation ${rep[1]}, the agent line ${shown.reputation.toFixed(4)}`
  }
  if (note !== undefined && /^confirm weighted/.test(note) && verdict !== 'confirm') return 'confirm note on another verdict'
  return undefined
}

function checkAgent (who: string, printed: number, why: string, { roots, agents }: Case): string | undefined {
  const rep = agents.find((a) => a.did === who)
  if (rep === undefined) return 'unknown agent'
  if (printed !== Number(rep.reputation.toFixed(4))) return 'printed reputation differs'
  const isRoot = roots.some((r) => r.did === who)
  if (why === 'a root: 1 by definition') return isRoot && rep.reputation === 1 ? undefined : 'called a root, but not in the roots list'
  if (isRoot) return 'a root not called one'
  if (why === 'the default 0.5: this node has no trust roots') return roots.length === 0 && rep.reputation === 0.5 ? undefined : 'default but rooted'
  if (why === 'no trust path from this node\'s roots reaches it') return rep.reputation === 0 && rep.path === null ? undefined : 'no path but reputation or path'
  const f = /^= standing (\S+) × agreement factor (\S+) × evidence factor (\S+?)(: .*)?$/.exec(why)
  if (f === null) return 'unknown reputation sentence'
  if (!close(Number(f[1]) * Number(f[2]) * Number(f[3]), printed, 0.0003)) return 'the factors do not multiply to the reputation'
  if (f[4] !== undefined && printed !== 0) return 'explains a zero that is not zero'
  if (f[4] === ': no reputable evidence backs it yet' && Number(f[3]) !== 0) return 'evidence factor is not 0'
  return undefined
}

function falsehoods (c: Case): string[] {
  const wrong: string[] = []
  for (const line of c.lines) {
    const text = line.trimStart()
    const form = FORMS.find(([pattern]) => pattern.test(text))
    const why = form === undefined ? 'no sentence form matches' : form[1](text.match(form[0]) as RegExpMatchArray, c)
    if (why !== undefined) wrong.push(`${why}: ${line}`)
  }
  return wrong
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
