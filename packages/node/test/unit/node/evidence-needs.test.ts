import { describe, expect, it } from 'vitest'
import { EVIDENCE_FETCH, EvidenceLedger, evidenceAgentsNeeded, type EvidenceFetchLimits } from '../../../src/node/index.js'
import { evidenceLine, explanationLines } from '../../../src/trust/index.js'
import { AgentEvidenceSchema, type AgentEvidence, type TrustResult } from '../../../src/schema/index.js'
import { readVectorFile } from '../identity/vectors.js'

interface NeedVectors {
  graph: Record<string, string[]>
  cases: Array<{ name: string, roots: string[], scored: string[], held: string[], asked: Record<string, number>, now: number, limits: EvidenceFetchLimits, expected: string[] }>
}

interface LineVectors {
  cases: Array<{ evidence: AgentEvidence, text: string }>
}

const NEEDS = readVectorFile<NeedVectors>('trust/evidence-needs.json')
const LINES = readVectorFile<LineVectors>('trust/evidence-lines.json')

describe('which agents\' evidence a node fetches (protocols/vectors/trust/evidence-needs.json)', () => {
  for (const c of NEEDS.cases) {
    it(c.name, () => {
      const held = new Set(c.held)
      expect(evidenceAgentsNeeded({
        roots: c.roots,
        scored: c.scored,
        neighbours: (did) => NEEDS.graph[did] ?? [],
        held: (did) => held.has(did),
        lastAsked: (did) => c.asked[did],
        now: c.now
      }, c.limits)).toEqual(c.expected)
    })
  }

  it('fetches nothing near the roots by default (measured: it cost accuracy, docs/trust.md §3a)', () => {
    expect(EVIDENCE_FETCH.rootRadius).toBe(0)
    expect(evidenceAgentsNeeded({ roots: ['root'], scored: [], neighbours: (did) => NEEDS.graph[did] ?? [], held: () => false, lastAsked: () => undefined, now: 0 })).toEqual([])
  })
})

describe('the explanation\'s missing-evidence line (protocols/vectors/trust/evidence-lines.json)', () => {
  for (const c of LINES.cases) {
    it(`says ${c.evidence.state}`, () => {
      expect(AgentEvidenceSchema.parse(c.evidence)).toEqual(c.evidence)
      expect(evidenceLine(c.evidence)).toBe(c.text)
    })
  }

  it('is one line per agent, after the refusals', () => {
    const result = {
      score: 0.2999, points: 0.4, level: 'Unverified', policy: 'isnad-reputation', computed_at: '2026-12-06T12:00:00.000Z',
      factors: {}, contributions: [], counted: { attestations: [], anchors: [] }, refused: { attestations: [], anchors: [] },
      evidence: LINES.cases.map((c) => c.evidence)
    } as unknown as TrustResult
    const lines = explanationLines(result).filter((l) => l.kind === 'evidence')
    expect(lines.map((l) => l.text)).toEqual(LINES.cases.map((c) => c.text))
    expect(explanationLines({ ...result, evidence: undefined } as unknown as TrustResult).some((l) => l.kind === 'evidence')).toBe(false)
  })
})

describe('EvidenceLedger', () => {
  const iso = (ms: number): string => new Date(ms).toISOString()

  it('goes missing → fetching → fetched, and lists the agents asked within refreshMs as author interests', () => {
    const ledger = new EvidenceLedger()
    expect(ledger.evidenceOf('w', 2, iso)).toEqual({ agent: 'w', held: 2, state: 'missing' })
    ledger.noteScored(['w', 'x'])
    expect(ledger.recentlyScored()).toEqual(['x', 'w'])
    ledger.asked(['w'], 1000)
    expect(ledger.recentlyScored()).toEqual(['x'])
    expect(ledger.evidenceOf('w', 2, iso).state).toBe('fetching')
    ledger.done('w', 5000, 4)
    expect(ledger.evidenceOf('w', 6, iso)).toEqual({ agent: 'w', held: 6, state: 'fetched', fetched_at: iso(5000), fetched: 4 })
    expect(ledger.authors(1000 + EVIDENCE_FETCH.refreshMs - 1)).toEqual(['w'])
    expect(ledger.authors(1000 + EVIDENCE_FETCH.refreshMs)).toEqual([])
  })

  it('keeps at most its bound of agents, the least recently asked dropped first', () => {
    const ledger = new EvidenceLedger(2)
    ledger.asked(['a', 'b', 'c'], 0)
    expect(ledger.lastAsked('a')).toBeUndefined()
    expect(ledger.authors(1)).toEqual(['b', 'c'])
    ledger.noteScored(['p', 'q', 'r'])
    expect(ledger.recentlyScored()).toEqual(['r', 'q'])
  })
})
