import { describe, expect, it } from 'vitest'
import {
  objectIdOf, reduceMemory, salienceOf, type ViewTrust
} from '../../../src/ledger/object-views/index.js'
import { CONTENT_TYPES, ViewObjectSchema, type ContentType, type ViewObjectType } from '../../../src/schema/index.js'
import { inputOf, memoryOf, TRUST } from './fixtures.js'

/** docs/views.md "Mapping": every content type, corrections, statuses and salience. */

const TABLE: Array<{ content: Exclude<ContentType, 'correction'>, type: ViewObjectType, prefix: string, horizon: string }> = [
  { content: 'fact', type: 'fact', prefix: 'fac_', horizon: 'medium' },
  { content: 'observation', type: 'fact', prefix: 'fac_', horizon: 'short' },
  { content: 'insight', type: 'fact', prefix: 'fac_', horizon: 'long' },
  { content: 'encounter', type: 'fact', prefix: 'fac_', horizon: 'medium' },
  { content: 'decision', type: 'decision', prefix: 'dec_', horizon: 'long' },
  { content: 'commitment', type: 'commitment', prefix: 'com_', horizon: 'short' }
]

describe('content type → view object (spec §6)', () => {
  it('covers every content type but correction', () => {
    expect(TABLE.map((row) => row.content).sort()).toEqual(CONTENT_TYPES.filter((t) => t !== 'correction').sort())
  })

  it.each(TABLE)('$content → $type ($prefix, $horizon)', ({ content, type, prefix, horizon }) => {
    const memory = memoryOf({ type: content, summary: `a ${content}`, body: 'because' })
    const { object } = reduceMemory(inputOf(memory))
    expect(ViewObjectSchema.safeParse(object).success, content).toBe(true)
    expect(object.type, content).toBe(type)
    expect(object.id.startsWith(prefix), content).toBe(true)
    expect(object.id, content).toBe(objectIdOf(type, memory.id))
    expect(object.horizon, content).toBe(horizon)
    // Required fields straight from the memory.
    expect(object, content).toMatchObject({
      schema_version: 'diasync-v1-object', scope: 'default', ts: memory.signed.record.created_at, summary: `a ${content}`,
      status: 'active', confidence: 0.8, tags: [], event_refs: ['evt_aaaaaaaaaaaaaaaaaaaaaaaaaa'], visibility: 'shared',
      owner: memory.signed.record.author.agent_id, source: memory.id
    })
  })

  it.each(['fact', 'decision', 'commitment'] as const)('a correction of a %s is a %s that supersedes it', (type) => {
    const corrected = memoryOf({ type: type === 'fact' ? 'insight' : type, summary: 'the original' })
    const correction = memoryOf({ type: 'correction', summary: 'the fix', supersedes: corrected.id })
    const { object } = reduceMemory(inputOf(correction, { supersededType: type }))
    expect(object.type).toBe(type)
    expect(object.id).toBe(objectIdOf(type, correction.id))
    expect(object.supersedes).toBe(objectIdOf(type, corrected.id))
    expect(object.horizon).toBe({ fact: 'medium', decision: 'long', commitment: 'short' }[type])
  })

  it('a correction of an unknown memory is a fact without supersedes', () => {
    const correction = memoryOf({ type: 'correction', summary: 'the fix', supersedes: memoryOf({ summary: 'elsewhere' }).id })
    const { object } = reduceMemory(inputOf(correction))
    expect(object.type).toBe('fact')
    expect(object.supersedes).toBeUndefined()
  })

  it('a non-correction that supersedes keeps its own type and points at the old object', () => {
    const old = memoryOf({ type: 'decision', summary: 'use LevelDB' })
    const memory = memoryOf({ type: 'decision', summary: 'use LevelDB 10', supersedes: old.id })
    const { object } = reduceMemory(inputOf(memory, { supersededType: 'decision' }))
    expect(object.type).toBe('decision')
    expect(object.supersedes).toBe(objectIdOf('decision', old.id))
  })
})

describe('status', () => {
  const memory = memoryOf()
  const status = (trust: ViewTrust, supersededBy?: string[]): string =>
    reduceMemory(inputOf(memory, { trust, ...(supersededBy === undefined ? {} : { supersededBy }) })).object.status

  it('active by default', () => expect(status(TRUST)).toBe('active'))
  it('superseded when a successor exists, even when disputed', () => {
    expect(status(TRUST, [memoryOf({ summary: 'next' }).id])).toBe('superseded')
    expect(status({ score: 0, level: 'Unverified', dispute_count: 3 }, [memoryOf({ summary: 'next' }).id])).toBe('superseded')
  })
  it('an empty successor list is no successor', () => expect(status(TRUST, [])).toBe('active'))
  it('disputed when disputes were counted and the score is below 0.3', () => {
    expect(status({ score: 0.29, level: 'Unverified', dispute_count: 1 })).toBe('disputed')
  })
  it('not disputed at 0.3, nor below 0.3 without disputes', () => {
    expect(status({ score: 0.3, level: 'Attested', dispute_count: 2 })).toBe('active')
    expect(status({ score: 0.1, level: 'Unverified', dispute_count: 0 })).toBe('active')
  })
  it('the threshold comes from the rules (policy.json views.disputed_below)', () => {
    const object = reduceMemory(inputOf(memory, { trust: { score: 0.4, level: 'Attested', dispute_count: 1 } }), { rules: { disputedBelow: 0.5 } }).object
    expect(object.status).toBe('disputed')
  })
})

describe('salience = confidence × (0.5 + 0.5 × trust score)', () => {
  it.each([
    [0.8, 0.5, 0.6], [1, 1, 1], [1, 0, 0.5], [0, 1, 0], [0.9, 0.3, 0.585], [0.85, 0.75, 0.7438]
  ])('confidence %d, trust %d → %d', (confidence, score, expected) => {
    expect(salienceOf(confidence, score)).toBe(expected)
  })

  it('is what the object carries', () => {
    const { object } = reduceMemory(inputOf(memoryOf({ confidence: 0.9 }), { trust: { score: 0.3, level: 'Attested', dispute_count: 0 } }))
    expect(object.salience).toBe(0.585)
  })
})
