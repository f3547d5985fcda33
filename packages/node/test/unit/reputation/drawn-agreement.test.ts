import { describe, expect, it } from 'vitest'
import { proveDraw, WITNESS_DRAW } from '../../../src/draw/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import { agreementSourcesOf } from '../../../src/reputation/drawn-agreement.js'
import { agreementOf } from '../../../src/reputation/reputation.js'
import { buildTrustGraph, collectVotes, type StoredAttestation, type TrustGraph, type VoteGroup } from '../../../src/reputation/index.js'
import type { AttestationRecord } from '../../../src/schema/index.js'
import { shardOf } from '../../../src/shard/index.js'
import { createAgent, createMemory, type TestAgent } from '../../fixtures/records.js'

/*
 * The debit weighs a memory's voters against its drawn witnesses (docs/trust.md §3, "drawn
 * agreement"): on a memory a witness the draw selected answered, only the drawn witnesses and the
 * roots are whom the others agree with or contradict; the author chose the rest, and a circle it asks
 * agrees with itself at will. Figures by hand from given vote weights.
 */

const group = (author: string, votes: VoteGroup['votes']): VoteGroup => ({ author, votes })

function weightsOf (graph: TrustGraph, given: Record<string, number>): Float64Array {
  const weights = new Float64Array(graph.agents.length)
  for (const [did, w] of Object.entries(given)) weights[graph.index.get(did) as number] = w
  return weights
}

function figures (graph: TrustGraph, weights: Float64Array, did: string, sources?: Uint8Array): { agreed: number, contradicted: number } {
  const { agreed, contradicted } = agreementOf(graph, weights, sources)
  const i = graph.index.get(did) as number
  return { agreed: agreed[i] as number, contradicted: contradicted[i] as number }
}

describe('agreement against the drawn witnesses', () => {
  // a and b were chosen by the author and confirm; the drawn d disputes, the drawn e confirms.
  const memory = group('author', [
    { witness: 'a', verdict: 'confirm' }, { witness: 'b', verdict: 'confirm' },
    { witness: 'd', verdict: 'dispute', drawn: true }, { witness: 'e', verdict: 'confirm', drawn: true }
  ])
  const graph = buildTrustGraph([memory], ['root'])
  const weights = weightsOf(graph, { a: 0.5, b: 0.5, d: 1, e: 0.25 })
  const sources = agreementSourcesOf(graph, [graph.index.get('root') as number])

  it('counts only the drawn witnesses as whom a chosen witness agrees with', () => {
    // a: A = e's 0.25 (b was chosen too), X = d's 1. Without the draw A would be b + e = 0.75.
    expect(figures(graph, weights, 'a', sources)).toEqual({ agreed: 0.25, contradicted: 1 })
    expect(figures(graph, weights, 'a')).toEqual({ agreed: 0.75, contradicted: 1 })
    // d, drawn: contradicted by e alone (0.25), not by the chosen a and b (1.25 without the draw).
    expect(figures(graph, weights, 'd', sources)).toEqual({ agreed: 0, contradicted: 0.25 })
    expect(figures(graph, weights, 'd')).toEqual({ agreed: 0, contradicted: 1.25 })
    // e, drawn: agrees with no other drawn witness (a and b chosen), contradicted by d.
    expect(figures(graph, weights, 'e', sources)).toEqual({ agreed: 0, contradicted: 1 })
  })

  it('hands a claim on its walk by its drawn members against the drawn contradiction', () => {
    const { claimPass } = agreementOf(graph, weights, sources)
    // Claims in verdict order: confirm {a, b, e}, dispute {d}. Confirm: 0.25 / (0.25 + 3 · 1);
    // dispute: 1 / (1 + 3 · 0.25).
    expect(claimPass[0]).toBeCloseTo(0.25 / 3.25, 12)
    expect(claimPass[1]).toBeCloseTo(1 / 1.75, 12)
  })

  it('weighs everyone against everyone on a memory no drawn witness answered, and counts a root as drawn', () => {
    const plain = buildTrustGraph([group('author', [{ witness: 'a', verdict: 'confirm' }, { witness: 'b', verdict: 'confirm' }, { witness: 'd', verdict: 'dispute' }])], ['root'])
    const plainSources = agreementSourcesOf(plain, [plain.index.get('root') as number])
    expect([...plainSources]).toEqual([1, 1, 1])
    const withRoot = buildTrustGraph([group('author', [
      { witness: 'a', verdict: 'confirm' }, { witness: 'root', verdict: 'dispute' }, { witness: 'd', verdict: 'dispute', drawn: true }
    ])], ['root'])
    const rootSources = agreementSourcesOf(withRoot, [withRoot.index.get('root') as number])
    // a: contradicted by the root (1) and the drawn d (0.5): 1.5; agreed with nobody.
    expect(figures(withRoot, weightsOf(withRoot, { a: 0.5, root: 1, d: 0.5 }), 'a', rootSources)).toEqual({ agreed: 0, contradicted: 1.5 })
  })
})

describe('a stored attestation as a drawn vote', () => {
  const author = createAgent(301)
  const witness = createAgent(302)
  const chosen = createAgent(303)
  const memory = createMemory(author, { summary: 'the drawn agreement memory', created_at: '2026-03-01T00:00:00Z' })
  /** The largest population at which `witness` is drawn for the memory. */
  const { fraction } = proveDraw(witness.secretKey, memory.id, 1)
  let largest = Math.max(1, Math.floor(WITNESS_DRAW.size / fraction))
  while (!proveDraw(witness.secretKey, memory.id, largest).drawn) largest--

  function attestation (agent: TestAgent, population?: number): StoredAttestation {
    const record: AttestationRecord = {
      kind: 'attestation', version: 1, memory: memory.id, witness: agent.did, attestation: 'confirm', witnessed_at: '2026-03-01T00:01:00Z',
      ...(population === undefined ? {} : { draw: { population, proof: encodeSignature(proveDraw(agent.secretKey, memory.id, population).proof) } })
    }
    return { id: `${agent.did}-${population ?? 0}`, record }
  }

  /** Per claim member (the drawn witness, then the chosen one): 1 when the debit weighs it as a source. */
  function sourcesAt (population: number): number[] {
    const graph = buildTrustGraph(collectVotes([{ author: author.did, attestations: [attestation(witness, population), attestation(chosen)] }]), [])
    return Array.from(agreementSourcesOf(graph, []))
  }

  it('is drawn when its proof puts it below size / population at a population the graph accepts', () => {
    // The chosen witness is no source: it agrees with the drawn one, not the other way round.
    expect(sourcesAt(largest)).toEqual([1, 0])
  })

  it('is not drawn above size / population, and then every voter weighs', () => {
    const graph = buildTrustGraph(collectVotes([{ author: author.did, attestations: [attestation(witness, largest + 1), attestation(chosen)] }]), [])
    expect(Array.from(graph.claims.drawIndex)).toEqual([-1, -1])
    expect(sourcesAt(largest + 1)).toEqual([1, 1])
  })

  it('is not drawn at a population below the graph\'s agents / 2 (three agents: 1 · 2 < 3)', () => {
    const graph = buildTrustGraph(collectVotes([{ author: author.did, attestations: [attestation(witness, 1), attestation(chosen)] }]), [])
    // Its fraction is below size / 1, so the draw is kept, then refused against the graph.
    expect(graph.claims.draws).toHaveLength(1)
    expect(sourcesAt(1)).toEqual([1, 1])
  })

  it('judges a draw\'s stated shard count against the node\'s set count (W12)', () => {
    // A witness of the author's shard under 4, drawn at population 8 within 4 shards: the graph's
    // estimate 32 alone gives count 1, which refuses it; a node set to 4 shards counts it.
    const inShard = Array.from({ length: 200 }, (_, i) => createAgent(400 + i))
      .find((a) => shardOf(a.did, 4) === shardOf(author.did, 4) && proveDraw(a.secretKey, memory.id, 8).drawn)!
    const record: AttestationRecord = {
      kind: 'attestation', version: 1, memory: memory.id, witness: inShard.did, attestation: 'confirm', witnessed_at: '2026-03-01T00:01:00Z',
      draw: { population: 8, shards: 4, proof: encodeSignature(proveDraw(inShard.secretKey, memory.id, 8).proof) }
    }
    const graph = buildTrustGraph(collectVotes([{ author: author.did, attestations: [{ id: 'sharded', record }, attestation(chosen)] }]), [])
    expect(Array.from(agreementSourcesOf(graph, [], 4))).toEqual([1, 0])
    expect(Array.from(agreementSourcesOf(graph, []))).toEqual([1, 1])
  })
})
