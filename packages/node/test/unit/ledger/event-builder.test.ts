import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isIsnadError } from '../../../src/errors/index.js'
import { EVENT_TYPES, EventSchema, type EventType } from '../../../src/schema/ledger-lines.js'
import { decodeSignedRecord, encodeSignedRecord } from '../../../src/record/index.js'
import { recordEventOf } from '../../../src/node/journal/record-events.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { canonicalCopy } from '../../../src/ledger/canonical-copy.js'
import { encodeEventLines, EventInputSchema, isPlainEventInput, MAX_CAUSAL_REFS } from '../../../src/ledger/event-builder.js'
import { buildEvent, eventIdFor, isBusEvent, MAX_LINE_BYTES, nextLc, verifyLineHash, type EventInput } from '../../../src/ledger/index.js'

const CTX = { scope: 'default', instanceId: `ins_${'a'.repeat(26)}`, runId: `run_${'b'.repeat(26)}`, tsWall: '2026-02-06T10:00:00.000Z' }

function input (over: Partial<EventInput> = {}): EventInput {
  return { type: 'memory.captured', actor: 'node', owner: 'did:key:z6Mk', payload: { cid: 'bafy1' }, idempotency_key: 'k1', ...over }
}

function codeOf (fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return isIsnadError(err) ? err.code : 'not an IsnadError'
  }
  return undefined
}

describe('routing (spec §4)', () => {
  const bus: EventType[] = ['memory.published', 'memory.handoff', 'memory.witness_requested']
  for (const type of EVENT_TYPES) {
    it(`${type} goes to ${bus.includes(type) ? 'bus/' : 'streams/'}`, () => { expect(isBusEvent(type)).toBe(bus.includes(type)) })
  }
})

describe('the Lamport clock (spec §5 lc)', () => {
  it('is one past the larger of the last value and the observed one', () => {
    expect(nextLc(0, undefined, 0)).toBe(1)
    expect(nextLc(7, undefined, 0)).toBe(8)
    expect(nextLc(7, 3, 0)).toBe(8)
    expect(nextLc(7, 40, 0)).toBe(41)
  })

  it('refuses an observed value that is not a non-negative integer', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(codeOf(() => nextLc(1, bad, 0))).toBe('SCHEMA_INVALID')
  })
})

describe('buildEvent (spec §5, §8)', () => {
  it('fills every required field, and the stored line is the event', () => {
    const { event, line } = buildEvent(input(), CTX, 5, 0)
    expect(EventSchema.parse(event)).toEqual(event)
    expect(event).toMatchObject({
      schema_version: 'diasync-v1-event', event_id: eventIdFor('default', 'k1'), type: 'memory.captured', scope: 'default',
      instance_id: CTX.instanceId, run_id: CTX.runId, ts_wall: CTX.tsWall, lc: 5, causal_refs: [], visibility: 'private'
    })
    expect(JSON.parse(line)).toEqual(event)
    expect(verifyLineHash(JSON.parse(line))).toBe(true)
    expect(line.endsWith(`,"hash":"${event.hash}"}`)).toBe(true)
    expect(line).not.toContain('\n')
  })

  it('writes the envelope in JCS order: the line is canonicalize(event without hash) plus hash (property)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown)
    fc.assert(fc.property(
      fc.dictionary(fc.string(), json), fc.string({ minLength: 1, maxLength: 60 }), fc.string({ minLength: 1, maxLength: 60 }),
      fc.string({ minLength: 1, maxLength: 80 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom(...EVENT_TYPES),
      (payload, actor, owner, key, lc, type) => {
        fc.pre(![actor, owner, key].some((s) => /[\uD800-\uDFFF]/u.test(s)))
        const { event, line } = buildEvent({ type, actor, owner, payload, idempotency_key: key }, CTX, lc, 0)
        const { hash, ...unhashed } = event
        expect(line).toBe(`${String(canonicalize(unhashed)).slice(0, -1)},"hash":"${hash}"}`)
        expect(JSON.parse(line)).toEqual(event)
        expect(verifyLineHash(JSON.parse(line))).toBe(true)
      }
    ), { numRuns: 300 })
  })

  it('writes a record event as the generic path would: the line is canonicalize(event without hash) plus hash, the payload a fresh copy', () => {
    const author = createAgent(1)
    const memory = createMemory(author)
    for (const stored of [memory, createAttestation(createAgent(2), memory.id)]) {
      const decoded = { id: stored.id, signed: decodeSignedRecord(encodeSignedRecord(stored.signed)) }
      const eventInput = recordEventOf(decoded, 'sync')
      const { event, line } = buildEvent(eventInput, CTX, 9, 0)
      const { hash, ...unhashed } = event
      expect(line).toBe(`${String(canonicalize({ ...unhashed, payload: eventInput.payload })).slice(0, -1)},"hash":"${hash}"}`)
      expect(event).toStrictEqual(JSON.parse(line))
      expect(event.payload.record).not.toBe(decoded.signed)
      expect(Object.keys(event.payload.record as object)).toEqual(['record', 'signature'])
    }
  })

  it('checks directly only inputs the schema accepts; the rest go through the schema (property)', () => {
    // Mostly valid, so that many inputs are checked directly; each field sometimes at or past its limits.
    const text = (max: number) => fc.oneof({ arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 12 },
      fc.string({ maxLength: max + 3 }), fc.constant(''), fc.constant('x'.repeat(max)), fc.constant('x'.repeat(max + 1)), fc.integer())
    const payload = fc.oneof(
      { arbitrary: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), weight: 8 },
      fc.constantFrom<unknown>(null, [], [1], 'text', new Date(0), { at: new Date(0) }, { [Symbol('s')]: 1 }, Object.create(null) as object, { n: Number.NaN })
    )
    const anyInput = fc.record({
      type: fc.oneof({ arbitrary: fc.constantFrom(...EVENT_TYPES), weight: 8 }, fc.constantFrom('memory.deleted', '', 'MEMORY.CAPTURED')),
      actor: text(128),
      owner: text(128),
      payload,
      idempotency_key: text(512),
      causal_refs: fc.oneof(
        fc.constantFrom(undefined, [], ['evt_nope'], 'evt', [undefined], new Array<string>(1)),
        fc.array(fc.string().map((k) => eventIdFor('s', k)), { maxLength: MAX_CAUSAL_REFS + 1 }),
        fc.constant(Array.from({ length: MAX_CAUSAL_REFS + 1 }, (_, i) => eventIdFor('s', String(i))))
      ),
      visibility: fc.constantFrom(undefined, 'private', 'shared', 'public', 'everyone'),
      observedLc: fc.constantFrom(undefined, undefined, undefined, 0, 3, -1),
      extra: fc.constantFrom(undefined, undefined, undefined, 1)
    }, { requiredKeys: ['type', 'actor', 'owner', 'payload', 'idempotency_key'] }).map(({ extra, ...rest }) => extra === undefined ? rest : { ...rest, extra })
    let direct = 0
    fc.assert(fc.property(anyInput, (generated) => {
      const value = generated as unknown as EventInput
      if (!isPlainEventInput(value, canonicalCopy(value.payload) !== undefined)) return
      direct++
      expect(EventInputSchema.safeParse(value).success, JSON.stringify(value)).toBe(true)
    }), { numRuns: 3000 })
    expect(direct).toBeGreaterThan(30)
    const refs = Array.from({ length: MAX_CAUSAL_REFS + 1 }, (_, i) => eventIdFor('s', String(i)))
    expect(EventInputSchema.safeParse({ ...input(), causal_refs: refs.slice(1) }).success).toBe(true)
    expect(EventInputSchema.safeParse({ ...input(), causal_refs: refs }).success).toBe(false)
  })

  it('refuses a line over MAX_LINE_BYTES with RECORD_TOO_LARGE', () => {
    expect(codeOf(() => buildEvent(input({ payload: { big: 'x'.repeat(MAX_LINE_BYTES) } }), CTX, 1, 0))).toBe('RECORD_TOO_LARGE')
  })

  it('refuses a context whose clock gave no valid instant', () => {
    expect(codeOf(() => buildEvent(input(), { ...CTX, tsWall: '+010000-01-01T00:00:00.000Z' }, 1, 0))).toBe('USAGE')
  })

  it('makes bus events shared unless told otherwise', () => {
    expect(buildEvent(input({ type: 'memory.published' }), CTX, 1, 0).event.visibility).toBe('shared')
    expect(buildEvent(input({ type: 'memory.published', visibility: 'public' }), CTX, 1, 0).event.visibility).toBe('public')
  })

  it('stores what JSON stores: a Date becomes its ISO string, undefined members vanish', () => {
    const { event, line } = buildEvent(input({ payload: { at: new Date(0), gone: undefined } }), CTX, 1, 0)
    expect(event.payload).toEqual({ at: '1970-01-01T00:00:00.000Z' })
    expect(JSON.parse(line)).toEqual(event)
  })

  it('refuses invalid inputs with SCHEMA_INVALID', () => {
    const bad: Array<Partial<EventInput>> = [
      { payload: { x: Number.NaN } },
      { payload: { s: '\udc00' } },
      { type: 'memory.deleted' as EventType },
      { causal_refs: ['evt_nope'] },
      { actor: '' },
      { idempotency_key: '' },
      { visibility: 'everyone' as 'public' },
      { actor: 'did:key:\udc00' },
      { unknownField: 1 } as Partial<EventInput>
    ]
    for (const over of bad) expect(codeOf(() => buildEvent(input(over), CTX, 1, 3)), JSON.stringify(over)).toBe('SCHEMA_INVALID')
  })

  it('returns the event as a reader of its line gets it: the same members in the same order, hash last', () => {
    const author = createAgent(1)
    const decoded = { id: createMemory(author).id, signed: decodeSignedRecord(encodeSignedRecord(createMemory(author).signed)) }
    for (const eventInput of [input(), input({ causal_refs: [eventIdFor('s', 'a')] }), recordEventOf(decoded, 'sync'), input({ payload: { at: new Date(0), b: { d: 1, c: 2 } } })]) {
      const { event, line } = buildEvent(eventInput, CTX, 3, 0)
      const parsed = JSON.parse(line) as Record<string, unknown>
      expect(Object.keys(event)).toEqual(Object.keys(parsed))
      expect(JSON.stringify(event)).toBe(line)
      expect(event.causal_refs).not.toBe(eventInput.causal_refs)
    }
  })
})

describe('encodeEventLines: the bytes appended to a shard', () => {
  it('is each built line followed by a newline, in UTF-8 (property)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown)
    const text = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }))
    const eventInput = fc.record({ payload: fc.oneof(fc.dictionary(fc.string(), json), fc.constant({ at: new Date(0) })), actor: text, idempotency_key: text })
    fc.assert(fc.property(fc.array(eventInput, { maxLength: 8 }), (inputs) => {
      const built = inputs.map((over, i) => buildEvent(input(over as Partial<EventInput>), CTX, i + 1, i))
      expect(encodeEventLines(built).toString('utf8')).toBe(built.map((b) => `${b.line}\n`).join(''))
    }), { numRuns: 300 })
  })
})
