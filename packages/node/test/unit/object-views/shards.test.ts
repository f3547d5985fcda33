import { describe, expect, it } from 'vitest'
import {
  AnyReductionRecordSchema, attachShardPath, buildReductionRound, MAX_REDUCTIONS_PER_EVENT, monthOf, reducedEventsOf, reduceMemory,
  ReductionRecordSchema, reductionFilesOf, reductionIdOf, roundEntryOf, viewShardPath, isLineHashValid
} from '../../../src/ledger/object-views/index.js'
import { EVIDENCE, inputOf, memoryOf } from './fixtures.js'

/** Spec §4 shard paths, §10 coordination/reducers.jsonl, §5 the memory.reduced event. */

describe('shard paths (spec §4)', () => {
  it('per type, per scope, per UTC month of ts', () => {
    expect(viewShardPath('fact', 'default', '2026-02-05T16:00:00Z')).toBe('views/facts/default/2026-02.jsonl')
    expect(viewShardPath('decision', 'proj-a', '2026-12-31T23:59:59.999Z')).toBe('views/decisions/proj-a/2026-12.jsonl')
    expect(viewShardPath('commitment', 'x', '2027-01-01T00:00:00Z')).toBe('views/commitments/x/2027-01.jsonl')
    expect(attachShardPath('default', '2026-02-05T16:00:00Z')).toBe('views/attach/default/2026-02.jsonl')
  })

  it('paths found again (the newest per folder is kept) still follow scope, month and type, and still refuse bad input', () => {
    expect(viewShardPath('fact', 'default', '2026-02-05T16:00:00Z')).toBe('views/facts/default/2026-02.jsonl')
    expect(viewShardPath('fact', 'default', '2026-02-28T23:59:59Z')).toBe('views/facts/default/2026-02.jsonl')
    expect(viewShardPath('fact', 'other', '2026-02-05T16:00:00Z')).toBe('views/facts/other/2026-02.jsonl')
    expect(viewShardPath('fact', 'other', '2026-03-01T00:00:00Z')).toBe('views/facts/other/2026-03.jsonl')
    expect(viewShardPath('decision', 'other', '2026-03-01T00:00:00Z')).toBe('views/decisions/other/2026-03.jsonl')
    expect(attachShardPath('other', '2026-03-09T00:00:00Z')).toBe('views/attach/other/2026-03.jsonl')
    // Same folder, scope and month prefix as the path just built, but not a real instant.
    expect(() => viewShardPath('decision', 'other', '2026-03-32T00:00:00Z')).toThrow(expect.objectContaining({ code: 'TIMESTAMP_INVALID' }))
    expect(() => attachShardPath('other', '2026-03-09T00:00:00+01:00')).toThrow(expect.objectContaining({ code: 'TIMESTAMP_INVALID' }))
    expect(() => viewShardPath('decision', 'Other', '2026-03-01T00:00:00Z')).toThrow(expect.objectContaining({ code: 'USAGE' }))
  })

  it('refuses a scope that is not a directory name and a time that is not UTC', () => {
    for (const scope of ['', '..', '../x', 'a/b', 'A', '.hidden']) {
      expect(() => viewShardPath('fact', scope, '2026-02-05T16:00:00Z'), scope).toThrow(expect.objectContaining({ code: 'USAGE' }))
    }
    expect(() => monthOf('2026-02-05T16:00:00+01:00')).toThrow(expect.objectContaining({ code: 'TIMESTAMP_INVALID' }))
    expect(() => monthOf('2026-02-30T16:00:00Z')).toThrow(expect.objectContaining({ code: 'TIMESTAMP_INVALID' }))
  })
})

describe('reduction records (spec §10) and the memory.reduced event (spec §5)', () => {
  const memory = memoryOf({ type: 'commitment', summary: 'ship views', tags: ['due:2026-03-01'] })
  const reduction = reduceMemory(inputOf(memory, { evidence: EVIDENCE }))
  const now = '2026-03-02T10:00:00Z'

  it('a round line names each new state by shard, object and reduction id, and nothing the view lines or the ids already say', () => {
    const other = reduceMemory(inputOf(memoryOf({ type: 'decision', summary: 'ship rounds' })))
    const record = buildReductionRound([roundEntryOf(reduction), roundEntryOf(other)], now)
    expect(ReductionRecordSchema.safeParse(record).success).toBe(true)
    expect(isLineHashValid(record)).toBe(true)
    expect(record).toEqual({
      schema_version: 'isnad-reduction-v3',
      ts: now,
      reductions: {
        'views/commitments/default/2026-02.jsonl': { [reduction.object.id]: reductionIdOf(reduction.object.id, reduction.object.hash, reduction.attachment?.hash, undefined) },
        'views/decisions/default/2026-02.jsonl': { [other.object.id]: reductionIdOf(other.object.id, other.object.hash, undefined, undefined) }
      },
      hash: record.hash
    })
    expect(reductionFilesOf(reduction)).toEqual({
      object: 'views/commitments/default/2026-02.jsonl', attachment: 'views/attach/default/2026-02.jsonl', reducers: 'coordination/reducers.jsonl'
    })
  })

  it('refuses an empty round, an object twice in one line, and a shard that is not an object shard', () => {
    expect(() => buildReductionRound([], now)).toThrow(TypeError)
    expect(() => buildReductionRound([roundEntryOf(reduction), roundEntryOf(reduction, 'red_aaaaaaaaaaaaaaaaaaaaaaaaaa')], now)).toThrow(/twice/)
    const record = buildReductionRound([roundEntryOf(reduction)], now)
    for (const shard of ['views/attach/default/2026-02.jsonl', '../views/facts/default/2026-02.jsonl', 'views/facts/default/2026-2.jsonl']) {
      const moved = { ...record, reductions: { [shard]: Object.values(record.reductions)[0] } }
      expect(AnyReductionRecordSchema.safeParse(moved).success, shard).toBe(false)
    }
    expect(AnyReductionRecordSchema.safeParse({ ...record, reductions: { 'views/facts/default/2026-02.jsonl': {} } }).success, 'no entry').toBe(false)
  })

  it('the reduction id depends on the state and the previous reduction, not on the time', () => {
    const a = roundEntryOf(reduction).reduction
    expect(buildReductionRound([roundEntryOf(reduction)], '2026-04-01T00:00:00Z').reductions['views/commitments/default/2026-02.jsonl']).toEqual({ [reduction.object.id]: a })
    const next = roundEntryOf(reduction, a).reduction
    expect(next).not.toBe(a)
    expect(next).toBe(reductionIdOf(reduction.object.id, reduction.object.hash, reduction.attachment?.hash, a))
  })

  it('a round\'s event names its reductions, keyed by them, with the asking events as causes; a large round takes several events', () => {
    const record = { id: roundEntryOf(reduction).reduction }
    const causes = reduction.object.event_refs
    const [event, ...rest] = reducedEventsOf([record.id], causes)
    expect(rest).toEqual([])
    expect(event).toEqual({
      type: 'memory.reduced',
      idempotency_key: expect.stringMatching(/^memory\.reduced:[0-9a-f]{64}$/) as unknown as string,
      causal_refs: causes,
      payload: { reducer: 'isnad-views/v1', reductions: [record.id] }
    })
    expect(reducedEventsOf([record.id], []).map((e) => e.idempotency_key), 'the key depends on the reductions only').toEqual([event?.idempotency_key])
    const ids: string[] = []
    for (let n = 0; n <= MAX_REDUCTIONS_PER_EVENT; n++) ids.push(roundEntryOf(reduction, ids.at(-1)).reduction)
    const events = reducedEventsOf(ids, causes)
    expect(events.map((e) => e.payload.reductions.length)).toEqual([MAX_REDUCTIONS_PER_EVENT, 1])
    expect(new Set(events.map((e) => e.idempotency_key)).size).toBe(2)
  })
})
