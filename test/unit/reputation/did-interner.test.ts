import { describe, expect, it } from 'vitest'
import { collectVotes, computeReputation, DidInterner, type MemoryAttestations } from '../../../src/reputation/index.js'
import type { AttestationVerdict } from '../../../src/schema/index.js'

/** A small graph: memories by `author`, attested by each [witness, verdict]. */
function memoriesOf (spec: Array<[string, Array<[string, AttestationVerdict]>]>): MemoryAttestations[] {
  let n = 0
  return spec.map(([author, votes], m) => ({
    author,
    attestations: votes.map(([witness, attestation]) => ({
      id: `a${n++}`,
      record: { kind: 'attestation' as const, version: 1 as const, memory: `m${m}`, witness, attestation, witnessed_at: '2026-02-05T10:00:00Z' }
    }))
  }))
}

const GRAPH = memoriesOf([
  ['r', [['a', 'confirm'], ['b', 'confirm']]],
  ['a', [['r', 'confirm'], ['c', 'dispute'], ['b', 'partial']]],
  ['b', [['a', 'confirm'], ['c', 'confirm']]],
  ['c', [['x', 'confirm'], ['y', 'confirm']]],
  ['x', [['y', 'confirm'], ['c', 'confirm']]]
])
const OTHER = memoriesOf([['z', [['q', 'confirm'], ['c', 'dispute']]], ['q', [['z', 'confirm']]]])

function summary (memories: MemoryAttestations[], interner?: DidInterner): unknown {
  const table = computeReputation(collectVotes(memories, undefined, interner), ['r'])
  const dids = ['r', 'a', 'b', 'c', 'x', 'y', 'z', 'q', 'nobody']
  return {
    agents: table.graph.agents,
    index: dids.map((d) => table.graph.index.get(d)),
    rank: Array.from(table.rank),
    reputation: dids.map((d) => table.lookup(d)),
    endorses: dids.map((d) => table.endorses('r', d))
  }
}

describe('DidInterner kept across computations (figure 10)', () => {
  it('gives the same graph, ranks and reputations as a fresh computation, whatever it interned before', () => {
    const fresh = summary(GRAPH)
    const interner = new DidInterner()
    // Interned in another order first (another graph, then this one twice): the node numbering and
    // every figure stay those of a fresh computation.
    summary(OTHER, interner)
    expect(summary(GRAPH, interner)).toEqual(fresh)
    expect(summary(GRAPH, interner)).toEqual(fresh)
    expect(summary(OTHER, interner)).toEqual(summary(OTHER))
  })

  it('a DID interned by an earlier computation is not in a later graph without it', () => {
    const interner = new DidInterner()
    summary(OTHER, interner)
    const table = computeReputation(collectVotes(GRAPH, undefined, interner), ['r'])
    expect(interner.find('z')).toBeDefined()
    expect(table.graph.index.get('z')).toBeUndefined()
    expect(table.lookup('z')).toBe(0)
  })

  it('assigns stable ids in first-sight order and finds without interning', () => {
    const interner = new DidInterner()
    expect([interner.idOf('a'), interner.idOf('b'), interner.idOf('a')]).toEqual([0, 1, 0])
    expect(interner.find('c')).toBeUndefined()
    expect(interner.size).toBe(2)
  })
})
