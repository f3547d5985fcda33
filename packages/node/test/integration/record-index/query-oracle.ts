import fc from 'fast-check'
import type { ContentType } from '../../../src/index.js'
import type { MemoryQuery, QueryHit, RecordStore, TrustEntry } from '../../../src/record-index/index.js'
import { createAgent, createMemory } from '../../fixtures/records.js'

/*
 * The oracle of the query property: stores built from small random specs (few tags, authors, times
 * and scores, so ties and duplicates are common), and the naive answer to a query — filter every
 * memory, sort by trust desc, created_at desc, id asc — that paging through the store must equal.
 */

const TAGS = ['a', 'b', 'c', 'd']
const TYPES: ContentType[] = ['fact', 'insight', 'decision']
/** Equal instants in two spellings, and neighbours a millisecond apart. */
const TIMES = ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-01-02T00:00:00Z', '2025-12-31T23:59:59.999Z']
/** 0.07 and 0.28 are scores whose × 10000 is not an integer in floating point. */
const SCORES = [0, 0.07, 0.28, 0.5, 0.7, 0.7001, 1]
const AUTHORS = [createAgent(0), createAgent(1), createAgent(2)]

export interface MemorySpec {
  author: number
  type: number
  tags: string[]
  time: number
  /** Which summary: equal specs with equal variants are the same record (a duplicate). */
  variant: number
  batch: number
  score?: number
  laterScore?: number
}
export type StoreSpec = MemorySpec[]

export const memoryArbitrary: fc.Arbitrary<MemorySpec> = fc.record({
  author: fc.nat({ max: AUTHORS.length - 1 }),
  type: fc.nat({ max: TYPES.length - 1 }),
  tags: fc.subarray(TAGS),
  time: fc.nat({ max: TIMES.length - 1 }),
  variant: fc.nat({ max: 3 }),
  batch: fc.nat({ max: 2 }),
  score: fc.constantFrom(...SCORES),
  laterScore: fc.constantFrom(...SCORES)
}, { requiredKeys: ['author', 'type', 'tags', 'time', 'variant', 'batch'] })

/** `arbitrary` in `percent` of the cases, else absent: most queries should name few filters. */
function sometimes<T> (arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary, weight: percent }, { arbitrary: fc.constant(undefined), weight: 100 - percent })
}

export const queryArbitrary: fc.Arbitrary<MemoryQuery> = fc.record({
  tags: sometimes(fc.subarray([...TAGS, 'absent'], { minLength: 1, maxLength: 2 }), 50),
  minTrust: sometimes(fc.constantFrom(0, 0.07, 0.28, 0.5, 0.7, 0.7001, 0.9, 1), 60),
  type: sometimes(fc.constantFrom(...TYPES), 25),
  author: sometimes(fc.constantFrom(...AUTHORS.map((a) => a.did), createAgent(3).did), 25),
  since: sometimes(fc.constantFrom(...TIMES), 20),
  until: sometimes(fc.constantFrom(...TIMES, '2027-01-01T00:00:00Z'), 20),
  limit: sometimes(fc.integer({ min: 1, max: 6 }), 85)
}).map((query) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as MemoryQuery)

/** Up to 40 memories, spread over the whole range: small stores rarely need a second page. */
export const storeArbitrary: fc.Arbitrary<StoreSpec> = fc.array(memoryArbitrary, { maxLength: 40, size: 'max' })

interface ModelMemory { id: string, author: string, type: ContentType, tags: string[], created_at: string }
export interface Model { memories: Map<string, ModelMemory>, scores: Map<string, number> }

const signed = new Map<string, ReturnType<typeof createMemory>>()

/** Signing is the slow part, and the spec space is small: each distinct record is signed once. */
function recordOf (spec: MemorySpec): ReturnType<typeof createMemory> {
  const key = JSON.stringify([spec.author, spec.type, spec.tags, spec.time, spec.variant])
  let record = signed.get(key)
  if (record === undefined) {
    const author = AUTHORS[spec.author]
    if (author === undefined) throw new Error(`no author ${spec.author}`)
    record = createMemory(author, {
      type: TYPES[spec.type], tags: spec.tags, created_at: TIMES[spec.time], summary: `variant ${spec.variant}`
    })
    signed.set(key, record)
  }
  return record
}

const trustOf = (score: number): TrustEntry => ({ score, level: 'x', policy: 'isnad-v0.1', computed_at: '2026-02-05T19:00:00Z' })

/** Writes the specs in up to three putMany batches with trust maps, then setTrust updates; returns the model. */
export async function buildStore (store: RecordStore, specs: StoreSpec): Promise<Model> {
  const model: Model = { memories: new Map(), scores: new Map() }
  for (let batch = 0; batch <= 2; batch++) {
    const inBatch = specs.filter((s) => s.batch === batch)
    const trust = new Map<string, TrustEntry>()
    for (const spec of inBatch) {
      const { id, signed: { record } } = recordOf(spec)
      model.memories.set(id, { id, author: record.author.agent_id, type: record.content.type, tags: record.content.tags, created_at: record.created_at })
      if (spec.score !== undefined) trust.set(id, trustOf(spec.score))
    }
    await store.putMany(inBatch.map(recordOf), trust)
    for (const [id, entry] of trust) model.scores.set(id, entry.score)
  }
  for (const spec of specs) {
    if (spec.laterScore === undefined) continue
    const { id } = recordOf(spec)
    await store.setTrust(id, trustOf(spec.laterScore))
    model.scores.set(id, spec.laterScore)
  }
  return model
}

export function oracle (model: Model, query: MemoryQuery): QueryHit[] {
  const at = (iso: string): number => Date.parse(iso)
  return [...model.memories.values()]
    .map((m) => ({ ...m, trust: model.scores.get(m.id) ?? 0 }))
    .filter((m) => (query.tags ?? []).every((tag) => m.tags.includes(tag)) &&
      m.trust >= (query.minTrust ?? 0) &&
      (query.type === undefined || m.type === query.type) &&
      (query.author === undefined || m.author === query.author) &&
      (query.since === undefined || at(m.created_at) >= at(query.since)) &&
      (query.until === undefined || at(m.created_at) < at(query.until)))
    .sort((x, y) => y.trust - x.trust || at(y.created_at) - at(x.created_at) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((m) => ({ id: m.id, trust: m.trust, created_at: m.created_at }))
}
