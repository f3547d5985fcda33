import type { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { OBJECT_SCHEMA_VERSION, ViewObjectSchema, type ViewObject } from '../../schema/index.js'
import { DEFAULT_VIEW_VISIBILITY } from './constants.js'
import { AttachmentSchema, buildAttachment, hasEvidence, type Attachment } from './attachment.js'
import type { ReduceInput, ViewHints } from './evidence.js'
import { hashLine as defaultHashLine, withHash, type HashLine } from './hash.js'
import { objectIdOf } from './ids.js'
import { DEFAULT_VIEW_RULES, horizonOf, objectTypeOf, salienceOf, statusOf, type ViewRules } from './rules.js'
import { addDays, readTagFields, slugOf } from './tags.js'

/**
 * The view reducer: one stored memory (+ its evidence and trust) → one `diasync-v1-object` (Memory
 * Format Spec V3.1 §6) and, when it has anchors or witnesses, one attachment for `views/attach/`.
 * Pure: no I/O, no clock; the object's `ts` is the memory's `created_at`, so the same input always
 * gives the same object, id and hash, and the object always lands in the same monthly shard.
 *
 * | field | derived from |
 * |---|---|
 * | id | `fac_`/`dec_`/`com_` + SHA-256(memory CID) (ids.ts) |
 * | type | content type: fact/observation/insight/encounter → fact, decision, commitment; correction → superseded type, else fact |
 * | ts, summary, confidence, tags, owner | created_at, content.summary, context.confidence, content.tags, author.agent_id |
 * | status | superseded (a successor exists) › disputed (disputes counted and score < 0.3) › active |
 * | horizon | observation, commitment short; encounter, fact medium; insight, decision long; correction as its type |
 * | salience | confidence × (0.5 + 0.5 × trust score) |
 * | source | the memory CID |
 * | supersedes | object id of lineage.supersedes read as `supersededType` |
 * | evidence_ref | the attachment id, when anchors or witnesses exist |
 * | why, decision_key | decisions: body (if any); `key:<k>` tag, else a slug of the summary |
 * | due_at | commitments: `due:YYYY-MM-DD` tag |
 * | review_at | facts: created_at + factReviewDays |
 * | project, assumptions | `project:<name>`, `assume:<text>` tags |
 * Hints replace derived values field by field. docs/views.md explains each rule.
 */

export interface Reduction {
  object: ViewObject
  /** Present iff the memory has anchors or witnesses; `object.evidence_ref` is its id. */
  attachment: Attachment | null
}

export interface ReduceOptions {
  /** The line hash; inject the ledger's. @default this folder's hashLine (same rule) */
  hashLine?: HashLine
  rules?: Partial<ViewRules>
}

export function reduceMemory (input: ReduceInput, options: ReduceOptions = {}): Reduction {
  const hash = options.hashLine ?? defaultHashLine
  const rules = { ...DEFAULT_VIEW_RULES, ...options.rules }
  const cid = input.memory.id
  const { content, author, created_at: ts, context, lineage } = input.memory.signed.record
  const type = objectTypeOf(content.type, input.supersededType)
  const id = objectIdOf(type, cid)
  const tags = readTagFields(content.tags)

  const attachment = hasEvidence(input.evidence)
    ? buildAttachment({ objectId: id, scope: input.scope, ts, memory: cid, evidence: input.evidence, trust: input.trust }, hash)
    : null

  const derived: DerivedFields = {
    summary: content.summary,
    status: statusOf(input.trust, (input.supersededBy?.length ?? 0) > 0, rules),
    horizon: horizonOf(content.type, type),
    salience: salienceOf(context.confidence, input.trust.score),
    tags: [...content.tags],
    visibility: input.visibility ?? DEFAULT_VIEW_VISIBILITY,
    project: tags.project,
    review_at: type === 'fact' ? addDays(ts, rules.factReviewDays) : undefined,
    due_at: type === 'commitment' ? tags.dueAt : undefined,
    decision_key: type === 'decision' ? (tags.decisionKey ?? decisionKeyFallback(content.summary, id)) : undefined,
    why: type === 'decision' && content.body !== '' ? content.body : undefined,
    assumptions: tags.assumptions.length > 0 ? tags.assumptions : undefined
  }
  const fields = applyHints(derived, input.hints)

  // Key order is the printed order: required fields first, optional ones, then refs, owner, hash.
  const object = withHash(present({
    schema_version: OBJECT_SCHEMA_VERSION,
    id,
    type,
    scope: input.scope,
    ts,
    summary: fields.summary,
    status: fields.status,
    horizon: fields.horizon,
    salience: fields.salience,
    confidence: context.confidence,
    tags: fields.tags,
    project: fields.project,
    source: cid,
    review_at: fields.review_at,
    due_at: fields.due_at,
    evidence_ref: attachment?.id,
    supersedes: lineage.supersedes !== undefined && input.supersededType !== undefined
      ? objectIdOf(input.supersededType, lineage.supersedes)
      : undefined,
    decision_key: fields.decision_key,
    why: fields.why,
    assumptions: fields.assumptions,
    event_refs: [...new Set(input.eventRefs)],
    visibility: fields.visibility,
    owner: author.agent_id
  }), hash)
  return {
    object: assertValid(ViewObjectSchema, object, 'view object', cid),
    attachment: attachment === null ? null : assertValid(AttachmentSchema, attachment, 'attachment', cid)
  }
}

function decisionKeyFallback (summary: string, id: string): string {
  const slug = slugOf(summary)
  return slug === '' ? `decision-${id.slice(4, 12)}` : slug
}

/** The hintable fields; the first six are always derived. */
type DerivedFields = Pick<ViewObject, 'summary' | 'status' | 'horizon' | 'salience' | 'tags' | 'visibility'> & ViewHints

/** A hint given (not undefined) replaces the derived value. */
function applyHints (derived: DerivedFields, hints: ViewHints | undefined): DerivedFields {
  if (hints === undefined) return derived
  const out: DerivedFields = { ...derived }
  for (const key of Object.keys(hints) as Array<keyof ViewHints>) {
    if (hints[key] !== undefined) Object.assign(out, { [key]: hints[key] })
  }
  return out
}

/** Absent optional fields are absent, never undefined or null (as in record-v1 §2.2). */
function present<T extends Record<string, unknown>> (fields: T): T {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(fields)) {
    const value = fields[key]
    if (value !== undefined) out[key] = value
  }
  return out as T
}

/** Validates and returns the line itself: zod's output would reorder the keys (hash last is on purpose). */
function assertValid<T> (schema: z.ZodType<T>, line: unknown, what: string, cid: string): T {
  const parsed = schema.safeParse(line)
  if (parsed.success) return line as T
  const issue = parsed.error.issues[0]
  throw new IsnadError('SCHEMA_INVALID', `${what} of memory ${cid} is invalid: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`, {
    details: { memory: cid, issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) }
  })
}
