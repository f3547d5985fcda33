import { describe, expect, it } from 'vitest'
import {
  AttachmentSchema, attachmentIdOf, reduceMemory, type ViewHints
} from '../../../src/ledger/object-views/index.js'
import { ViewObjectSchema } from '../../../src/schema/index.js'
import { EVENT, EVENT2, EVIDENCE, inputOf, memoryOf, TRUST, WITNESS } from './fixtures.js'

/** Spec §6 optional fields: each derived where it can be, absent otherwise, and hints override. */

describe('optional fields', () => {
  it('source is the memory CID', () => {
    const memory = memoryOf()
    expect(reduceMemory(inputOf(memory)).object.source).toBe(memory.id)
  })

  it('evidence_ref and the attachment exist iff there are anchors or witnesses', () => {
    const memory = memoryOf()
    const bare = reduceMemory(inputOf(memory))
    expect(bare.object.evidence_ref).toBeUndefined()
    expect(bare.attachment).toBeNull()
    expect(reduceMemory(inputOf(memory, { evidence: { attestations: [], anchors: [] } })).attachment).toBeNull()

    const { object, attachment } = reduceMemory(inputOf(memory, { evidence: EVIDENCE }))
    expect(object.evidence_ref).toBe(attachmentIdOf(object.id))
    expect(attachment).not.toBeNull()
    expect(AttachmentSchema.safeParse(attachment).success).toBe(true)
    // The compact form: the id the object points to, the evidence by CID, the trust; no copy of
    // what the object line (scope, ts, source) or the records (witness) hold.
    expect(Object.keys(attachment ?? {})).toEqual(['schema_version', 'id', 'attestations', 'anchors', 'trust', 'hash'])
    expect(attachment).toMatchObject({ id: object.evidence_ref, trust: { score: TRUST.score, level: TRUST.level } })
    // Keyed by id in id order, whatever the caller's order; the witness is the attestation record's.
    const ids = Object.keys(attachment?.attestations ?? {})
    expect(ids).toEqual(EVIDENCE.attestations.map((a) => a.id).sort())
    expect(attachment?.attestations).toEqual(Object.fromEntries(EVIDENCE.attestations.map((a) => [a.id, a.verdict])))
    expect(JSON.stringify(attachment)).not.toContain(WITNESS)
    expect(attachment?.anchors).toEqual(Object.fromEntries(EVIDENCE.anchors.map(({ id, ...anchor }) => [id, anchor])))
  })

  it('an attestation alone is enough for an attachment, and an empty kind of evidence is left out', () => {
    const { object, attachment } = reduceMemory(inputOf(memoryOf(), { evidence: { attestations: EVIDENCE.attestations, anchors: [] } }))
    expect(object.evidence_ref).toBeDefined()
    expect(attachment !== null && 'anchors' in attachment).toBe(false)
    const anchored = reduceMemory(inputOf(memoryOf(), { evidence: { attestations: [], anchors: EVIDENCE.anchors } })).attachment
    expect(anchored !== null && 'attestations' in anchored).toBe(false)
    expect(AttachmentSchema.safeParse(anchored).success).toBe(true)
    // A line with neither is no attachment.
    expect(AttachmentSchema.safeParse({ ...anchored, anchors: undefined }).success).toBe(false)
  })

  it('why is a decision\'s body, absent when the body is empty or the object is not a decision', () => {
    expect(reduceMemory(inputOf(memoryOf({ type: 'decision', body: 'cheaper to audit' }))).object.why).toBe('cheaper to audit')
    expect(reduceMemory(inputOf(memoryOf({ type: 'decision', body: '' }))).object.why).toBeUndefined()
    expect(reduceMemory(inputOf(memoryOf({ type: 'insight', body: 'long text' }))).object.why).toBeUndefined()
  })

  it('decision_key from a key: tag, else a slug of the summary, else from the id', () => {
    const keyed = memoryOf({ type: 'decision', summary: 'Chose provenance', tags: ['trust', 'key:focus', 'key:other'] })
    expect(reduceMemory(inputOf(keyed)).object.decision_key).toBe('focus')
    const slugged = memoryOf({ type: 'decision', summary: 'Chose Provenance over Permissions — first focus!' })
    expect(reduceMemory(inputOf(slugged)).object.decision_key).toBe('chose-provenance-over-permissions-first-focus')
    const accented = memoryOf({ type: 'decision', summary: 'Élan vital: ça marche' })
    expect(reduceMemory(inputOf(accented)).object.decision_key).toBe('elan-vital-ca-marche')
    const symbols = memoryOf({ type: 'decision', summary: '→ ✓ !' })
    const { object } = reduceMemory(inputOf(symbols))
    expect(object.decision_key).toBe(`decision-${object.id.slice(4, 12)}`)
    const long = memoryOf({ type: 'decision', summary: 'word '.repeat(40) })
    expect(reduceMemory(inputOf(long)).object.decision_key?.length).toBeLessThanOrEqual(64)
    expect(reduceMemory(inputOf(memoryOf({ type: 'fact', tags: ['key:x'] }))).object.decision_key).toBeUndefined()
  })

  it('due_at from a due: tag on a commitment; impossible dates are ignored', () => {
    const due = (tags: string[], type: 'commitment' | 'fact' = 'commitment'): string | undefined =>
      reduceMemory(inputOf(memoryOf({ type, tags }))).object.due_at
    expect(due(['due:2026-03-01'])).toBe('2026-03-01')
    expect(due(['due:2026-02-30', 'due:2026-03-02'])).toBe('2026-03-02')
    expect(due(['due:soon'])).toBeUndefined()
    expect(due(['due:2026-03-01'], 'fact')).toBeUndefined()
  })

  it('review_at: facts only, created_at + factReviewDays (default 90)', () => {
    expect(reduceMemory(inputOf(memoryOf({ type: 'insight', created_at: '2026-02-05T23:59:59.999Z' }))).object.review_at).toBe('2026-05-06')
    expect(reduceMemory(inputOf(memoryOf({ type: 'fact' })), { rules: { factReviewDays: 7 } }).object.review_at).toBe('2026-02-12')
    expect(reduceMemory(inputOf(memoryOf({ type: 'decision' }))).object.review_at).toBeUndefined()
    expect(reduceMemory(inputOf(memoryOf({ type: 'fact', created_at: '9999-12-01T00:00:00Z' }))).object.review_at).toBeUndefined()
  })

  it('project and assumptions from tags, on any type', () => {
    const { object } = reduceMemory(inputOf(memoryOf({
      type: 'commitment', tags: ['project:isnad', 'project:other', 'assume:peers-online', 'assume:disk-ok', 'assume:peers-online', 'assume:']
    })))
    expect(object.project).toBe('isnad')
    expect(object.assumptions).toEqual(['peers-online', 'disk-ok'])
    expect(object.tags).toContain('project:isnad')
    const plain = reduceMemory(inputOf(memoryOf({ tags: ['plain'] }))).object
    expect(plain.project).toBeUndefined()
    expect(plain.assumptions).toBeUndefined()
    expect('assumptions' in plain).toBe(false) // absent, never undefined
  })

  it('event_refs keep the caller\'s order, once each', () => {
    expect(reduceMemory(inputOf(memoryOf(), { eventRefs: [EVENT2, EVENT, EVENT2] })).object.event_refs).toEqual([EVENT2, EVENT])
  })

  it('visibility defaults to shared and follows the caller', () => {
    expect(reduceMemory(inputOf(memoryOf(), { visibility: 'private' })).object.visibility).toBe('private')
  })
})

describe('hints override derived values', () => {
  const memory = memoryOf({ type: 'decision', summary: 'use JSONL', body: 'auditable', tags: ['project:a', 'key:k'] })
  const hints: Required<ViewHints> = {
    summary: 'use JSONL ledgers', status: 'done', horizon: 'short', salience: 0.42, tags: ['hinted'], project: 'b',
    review_at: '2027-01-01', due_at: '2026-12-31', decision_key: 'storage', why: 'grep works', assumptions: ['one-writer'],
    visibility: 'public'
  }

  it.each(Object.keys(hints) as Array<keyof ViewHints>)('%s', (key) => {
    const { object } = reduceMemory(inputOf(memory, { hints: { [key]: hints[key] } }))
    expect(object[key]).toEqual(hints[key])
    expect(ViewObjectSchema.safeParse(object).success).toBe(true)
  })

  it('an undefined hint keeps the derived value', () => {
    expect(reduceMemory(inputOf(memory, { hints: { project: undefined } })).object.project).toBe('a')
  })

  it('a hint that breaks the contract is SCHEMA_INVALID, naming the memory', () => {
    expect(() => reduceMemory(inputOf(memory, { hints: { salience: 2 } }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID', details: expect.objectContaining({ memory: memory.id }) }))
  })

  it('so are a bad scope and missing event refs', () => {
    expect(() => reduceMemory(inputOf(memory, { scope: '../up' }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
    expect(() => reduceMemory(inputOf(memory, { eventRefs: [] }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }))
  })

  it('so is evidence that is not evidence (an attestation id that is not a record CID)', () => {
    const evidence = { attestations: [{ id: 'not-a-cid', verdict: 'confirm' as const }], anchors: [] }
    expect(() => reduceMemory(inputOf(memory, { evidence }))).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID', message: expect.stringContaining('attachment') }))
  })
})
