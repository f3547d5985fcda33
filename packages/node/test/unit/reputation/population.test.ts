import { describe, expect, it } from 'vitest'
import { drawFractionOfProof, proveDraw, WITNESS_DRAW } from '../../../src/draw/index.js'
import { NODE_RECORD_FAST_PATHS } from '../../../src/fast-crypto/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import { populationOf, reputationFor, trustSettingFrom, type MemoryAttestations, type StoredAttestation } from '../../../src/reputation/index.js'
import type { AttestationRecord } from '../../../src/schema/index.js'
import { createAgent, createMemory, type TestAgent } from '../../fixtures/records.js'

/*
 * N̂ as a node's reputation table gives it (src/reputation populationOf over src/draw
 * populationEstimate): the graph's agents, or the median population the counted drawn attestations
 * of reputable witnesses state, the larger; real ECVRF proofs, their fractions read as a node reads
 * a stored draw's.
 */

const root = createAgent(201)
const author = createAgent(202)
const witnesses = [createAgent(203), createAgent(204), createAgent(205)]
const sybil = createAgent(206)
const sybilAuthor = createAgent(207)
/** A memory nobody reputable touches: its author's walk cannot reach the Sybil that confirms it. */
const sybilMemory = createMemory(sybilAuthor, { summary: 'a memory of the Sybils', created_at: '2026-03-01T00:00:00Z' })
const memory = createMemory(author, { summary: 'the population memory', created_at: '2026-03-01T00:00:00Z' })
const known = witnesses.map((w, i) => createMemory(w, { summary: `a memory of witness ${i}`, created_at: '2026-03-01T00:00:00Z' }))

/** The largest population at which `witness` is drawn for `memoryId`: the population it can state. */
function largestDrawn (witness: TestAgent, memoryId: string): number {
  const { fraction } = proveDraw(witness.secretKey, memoryId, 1)
  let population = Math.max(1, Math.floor(WITNESS_DRAW.size / fraction))
  while (!proveDraw(witness.secretKey, memoryId, population).drawn) population--
  return Math.min(population, 4294967295)
}

let serial = 0
function attestation (witness: TestAgent, memoryId: string, draw?: { population: number, proofFor?: string }): StoredAttestation {
  const record: AttestationRecord = {
    kind: 'attestation', version: 1, memory: memoryId, witness: witness.did, attestation: 'confirm', witnessed_at: `2026-03-01T00:0${serial % 10}:00Z`,
    ...(draw === undefined ? {} : { draw: { population: draw.population, proof: encodeSignature(proveDraw(witness.secretKey, draw.proofFor ?? memoryId, draw.population).proof) } })
  }
  return { id: `attestation-${++serial}`, record }
}

/** The root confirms each witness's memory (they are reputable); the memory's attestations as given. */
function memories (attestations: StoredAttestation[], sybils: StoredAttestation[] = []): MemoryAttestations[] {
  return [
    ...known.map((m) => ({ author: m.signed.record.author.agent_id, attestations: [attestation(root, m.id)] })),
    { author: author.did, attestations },
    ...(sybils.length === 0 ? [] : [{ author: sybilAuthor.did, attestations: sybils }])
  ]
}

describe('N̂ of a reputation table', () => {
  const stated = witnesses.map((w) => largestDrawn(w, memory.id))

  it('is the median the reputable drawn witnesses state when it is above the graph count', () => {
    const table = reputationFor(memories(witnesses.map((w, i) => attestation(w, memory.id, { population: stated[i] as number }))), { policy: 'isnad-draw', roots: [root.did] })
    if (table === undefined) throw new Error('rooted')
    const median = [...stated].sort((a, b) => a - b)[1] as number
    expect(table.graph.agents.length).toBe(5)
    expect(populationOf(table)).toBe(Math.max(5, median))
    // Every path reads the same: the native fractions, and the setting scoring and reindex build.
    expect(populationOf(table, NODE_RECORD_FAST_PATHS)).toBe(Math.max(5, median))
    const setting = trustSettingFrom(memories(witnesses.map((w, i) => attestation(w, memory.id, { population: stated[i] as number }))), { policy: 'isnad-draw', roots: [root.did], drawPaths: NODE_RECORD_FAST_PATHS })
    expect(setting.populationEstimate).toBe(Math.max(5, median))
  })

  it('ignores a zero-reputation witness and a draw that did not draw its witness at its stated population', () => {
    const huge = largestDrawn(sybil, sybilMemory.id)
    const own = stated[0] as number
    const undrawn = own + 1 + Math.ceil(WITNESS_DRAW.size / drawFractionOfProof(proveDraw(witnesses[1]!.secretKey, memory.id, 1).proof))
    const table = reputationFor(memories([
      // Not drawn at what it states: a draw that claims more than its fraction allows.
      attestation(witnesses[1] as TestAgent, memory.id, { population: undrawn })
    ], [attestation(sybil, sybilMemory.id, { population: huge })]), { policy: 'isnad-draw', roots: [root.did] })
    if (table === undefined) throw new Error('rooted')
    expect(table.lookup(sybil.did)).toBe(0)
    expect(table.lookup(witnesses[1]?.did ?? '')).toBeGreaterThan(0)
    expect(table.populationClaims).toHaveLength(2)
    // Either claim, counted, would raise N̂ above the graph's agents.
    expect(Math.min(huge, undrawn)).toBeGreaterThan(table.graph.agents.length)
    expect(populationOf(table)).toBe(table.graph.agents.length)
    // With a reputable witness's real draw beside them, that one is the median.
    const withHonest = reputationFor(memories([
      attestation(witnesses[0] as TestAgent, memory.id, { population: own }),
      attestation(witnesses[1] as TestAgent, memory.id, { population: undrawn })
    ], [attestation(sybil, sybilMemory.id, { population: huge })]), { policy: 'isnad-draw', roots: [root.did] })
    expect(withHonest === undefined ? 0 : populationOf(withHonest)).toBe(Math.max(withHonest?.graph.agents.length ?? 0, own))
  })

  it('is the graph count without drawn attestations', () => {
    const table = reputationFor(memories(witnesses.map((w) => attestation(w, memory.id))), { policy: 'isnad-draw', roots: [root.did] })
    if (table === undefined) throw new Error('rooted')
    expect(table.populationClaims).toHaveLength(0)
    expect(populationOf(table)).toBe(table.graph.agents.length)
  })
})
