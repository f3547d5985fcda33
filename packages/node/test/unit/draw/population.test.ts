import { describe, expect, it } from 'vitest'
import { POPULATION_CLAIM_WINDOW, populationEstimate, statedPopulation, WITNESS_DRAW, type PopulationClaim } from '../../../src/draw/index.js'
import { readVectorFile } from '../identity/vectors.js'

interface VectorClaim {
  id: string
  witness: string
  population: number
  at: number
  fraction: number | null
  reputation: number
}

interface PopulationVector {
  name: string
  graph_agents: number
  window: number
  claims: VectorClaim[]
  stated: number | null
  estimate: number
}

const FILE = readVectorFile<{ size: number, vectors: PopulationVector[] }>('draw/population.json')

/** A vector's claims as the pure function takes them, with its reputation and fraction lookups. */
function inputOf (claims: readonly VectorClaim[], window?: number): { claims: PopulationClaim[], input: Parameters<typeof statedPopulation>[1] } {
  const byId = new Map(claims.map((c) => [c.id, c]))
  const reputation = new Map(claims.map((c) => [c.witness, c.reputation]))
  return {
    claims: claims.map(({ id, witness, population, at }) => ({ id, witness, population, at, proof: '' })),
    input: {
      reputation: (witness) => reputation.get(witness) ?? 0,
      fractionOf: (claim) => byId.get(claim.id)?.fraction ?? undefined,
      ...(window === undefined ? {} : { window })
    }
  }
}

describe('N̂ from the populations reputable drawn witnesses state (witness-draw-v1 §6)', () => {
  it('the vectors were made at the protocol size', () => {
    expect(FILE.size).toBe(WITNESS_DRAW.size)
    expect(POPULATION_CLAIM_WINDOW).toBe(256)
  })

  for (const vector of FILE.vectors) {
    it(vector.name, () => {
      const { claims, input } = inputOf(vector.claims, vector.window)
      expect(statedPopulation(claims, input) ?? null).toBe(vector.stated)
      expect(populationEstimate(vector.graph_agents, claims, input)).toBe(vector.estimate)
      // The order the node holds its claims in does not matter.
      expect(populationEstimate(vector.graph_agents, [...claims].reverse(), input)).toBe(vector.estimate)
    })
  }

  it('a minority of reputable witnesses stating a huge population moves the median by at most their count', () => {
    const honest = Array.from({ length: 9 }, (_, i): VectorClaim => ({ id: `h${i}`, witness: `did:h${i}`, population: 1000 + i, at: i, fraction: 1e-4, reputation: 0.3 }))
    const liars = Array.from({ length: 4 }, (_, i): VectorClaim => ({ id: `l${i}`, witness: `did:l${i}`, population: 4294967295, at: 100 + i, fraction: 1e-12, reputation: 0.9 }))
    const { claims, input } = inputOf([...honest, ...liars])
    const stated = statedPopulation(claims, input) as number
    // 13 claims, the lower median the 7th smallest: an honest one, 4 places above the honest median.
    expect(stated).toBe(1006)
    expect(stated).toBeLessThanOrEqual(Math.max(...honest.map((c) => c.population)))
  })

  it('bounds the window: only the newest POPULATION_CLAIM_WINDOW witnesses count', () => {
    const old = Array.from({ length: 300 }, (_, i): VectorClaim => ({ id: `o${i}`, witness: `did:o${i}`, population: 10, at: i, fraction: 0.01, reputation: 1 }))
    const recent = Array.from({ length: POPULATION_CLAIM_WINDOW }, (_, i): VectorClaim => ({ id: `r${i}`, witness: `did:r${i}`, population: 5000, at: 1000 + i, fraction: 1e-5, reputation: 1 }))
    const { claims, input } = inputOf([...old, ...recent])
    expect(statedPopulation(claims, input)).toBe(5000)
    // A window twice as large takes as many old witnesses as new ones: the lower median is an old one.
    expect(statedPopulation(claims, { ...input, window: POPULATION_CLAIM_WINDOW * 2 })).toBe(10)
  })

  it('reads a fraction only for claims that could enter the window', () => {
    const many = Array.from({ length: 1000 }, (_, i): VectorClaim => ({ id: `m${String(i).padStart(4, '0')}`, witness: `did:m${i}`, population: 50, at: i, fraction: 0.01, reputation: 1 }))
    const { claims, input } = inputOf(many)
    let read = 0
    const counted = { ...input, fractionOf: (claim: PopulationClaim) => { read++; return input.fractionOf(claim) } }
    expect(statedPopulation(claims, counted)).toBe(50)
    expect(read).toBe(POPULATION_CLAIM_WINDOW)
  })

  it('a window that is not a whole number ≥ 1 counts nothing', () => {
    const { claims, input } = inputOf(FILE.vectors[0]?.claims ?? [])
    expect(statedPopulation(claims, { ...input, window: 0 })).toBeUndefined()
    expect(populationEstimate(4, claims, { ...input, window: 0 })).toBe(4)
  })
})
