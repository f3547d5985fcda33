import fc from 'fast-check'
import { recordCidOf } from '../../../src/record/index.js'
import {
  ANCHOR_STATES, ANCHOR_TYPES, ATTESTATION_VERDICTS, CONTENT_TYPES, TRUST_LEVELS, VIEW_OBJECT_TYPES, VISIBILITIES,
  type MemoryRecord
} from '../../../src/schema/index.js'
import type { ReduceInput, ViewHints } from '../../../src/ledger/object-views/index.js'
import { AUTHOR, SIGNATURE, WITNESS } from './fixtures.js'

/** fast-check arbitraries of reducer inputs: any schema-valid memory, evidence, trust and hints. */

const text = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), fc.constantFrom('a', 'é', '𝄞', ' ', '-', ':')), minLength: min, maxLength: max })
    .map((s) => s.replace(/[\u0000-\u001F\u007F]/gu, '·'))
    .filter((s) => s.length >= min)

const word = text(1, 10).map((s) => s.replace(/\s/gu, '_'))
const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
const timestamp = fc.tuple(date, fc.boolean()).map(([d, millis]) => millis ? d.toISOString() : d.toISOString().slice(0, 19) + 'Z')
const calendarDay = date.map((d) => d.toISOString().slice(0, 10))
const cid = fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => recordCidOf({
  kind: 'anchor', version: 1, memory: 'bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', type: 'url', reference: Buffer.from(bytes).toString('hex'),
  hash: 'sha2-256:00', created_at: '2026-01-01T00:00:00Z', anchored_by: AUTHOR
}).toString())
const unit = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0)

/** Plain words and the structured tags the reducer reads (sometimes malformed on purpose). */
const tag = fc.oneof(
  word,
  word.map((w) => `key:${w}`),
  word.map((w) => `project:${w}`),
  word.map((w) => `assume:${w}`),
  calendarDay.map((d) => `due:${d}`),
  fc.constantFrom('due:2026-02-30', 'due:', 'key:', 'assume:')
)

const memory = fc.record({
  type: fc.constantFrom(...CONTENT_TYPES), summary: text(1, 40), body: text(0, 60), tags: fc.uniqueArray(tag, { maxLength: 6 }),
  created_at: timestamp, confidence: unit, supersedes: fc.option(cid, { nil: undefined })
}).map((f) => {
  const record: MemoryRecord = {
    kind: 'memory',
    version: 1,
    content: { type: f.type, summary: f.summary, body: f.body, tags: f.tags },
    author: { agent_id: AUTHOR },
    created_at: f.created_at,
    context: { confidence: f.confidence },
    lineage: f.supersedes === undefined ? { derived_from: [] } : { supersedes: f.supersedes, derived_from: [] }
  }
  return { id: recordCidOf(record).toString(), signed: { record, signature: SIGNATURE } }
})

const evidence = fc.record({
  attestations: fc.array(fc.record({ id: cid, verdict: fc.constantFrom(...ATTESTATION_VERDICTS), witness: fc.option(fc.constant(WITNESS), { nil: undefined }) }), { maxLength: 4 })
    .map((list) => list.map((a) => (a.witness === undefined ? { id: a.id, verdict: a.verdict } : a))),
  anchors: fc.array(fc.record({
    id: cid, type: fc.constantFrom(...ANCHOR_TYPES), reference: text(1, 20), hash: fc.constant('sha2-256:ab'), state: fc.constantFrom(...ANCHOR_STATES)
  }), { maxLength: 3 })
})

const hints: fc.Arbitrary<ViewHints> = fc.record({
  summary: text(1, 20),
  status: fc.constantFrom('active', 'superseded', 'disputed', 'done', 'cancelled' as const),
  horizon: fc.constantFrom('short', 'medium', 'long' as const),
  salience: unit,
  tags: fc.array(word, { maxLength: 3 }),
  project: word,
  review_at: calendarDay,
  due_at: calendarDay,
  decision_key: word,
  why: text(0, 20),
  assumptions: fc.array(word, { maxLength: 2 }),
  visibility: fc.constantFrom(...VISIBILITIES)
}, { requiredKeys: [] })

const scope = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/)
const eventId = fc.stringMatching(/^evt_[a-z2-7]{26}$/)

export const reduceInput: fc.Arbitrary<ReduceInput> = fc.record({
  memory,
  scope,
  eventRefs: fc.array(eventId, { minLength: 1, maxLength: 4 }),
  trust: fc.record({ score: unit, level: fc.constantFrom(...TRUST_LEVELS), dispute_count: fc.nat({ max: 5 }) }),
  evidence: fc.option(evidence, { nil: undefined }),
  supersededType: fc.option(fc.constantFrom(...VIEW_OBJECT_TYPES), { nil: undefined }),
  supersededBy: fc.option(fc.array(cid, { maxLength: 2 }), { nil: undefined }),
  visibility: fc.option(fc.constantFrom(...VISIBILITIES), { nil: undefined }),
  hints: fc.option(hints, { nil: undefined })
}).map((input) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as unknown as ReduceInput)
