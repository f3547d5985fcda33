import type { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import { OBJECT_SCHEMA_VERSION, ViewObjectSchema, type ViewObject } from '../../schema/index.js'
import { DEFAULT_VIEW_VISIBILITY } from './constants.js'
import { AttachmentSchema, buildAttachment, hasEvidence, type Attachment } from './attachment.js'
import type { ReduceInput, ViewHints } from './reducer-input.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import { objectIdOf } from '../ids.js'
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
  /**
   * Check the object and attachment against their zod schemas before returning them. The node's own
   * reducer turns this off: its inputs are records the store validated at ingest, its own scope and
   * event ids, and no hints, and what it builds from them is not a trust boundary (the parse costs
   * about a third of the reduction's CPU and allocation). test/unit/object-views/properties.test.ts and
   * test/integration/node/view-reducer-schemas.test.ts check that output against the schemas
   * instead; readers of view files parse every line (ledger/audit).
   * @default true
   */
  selfCheck?: boolean
}

export function reduceMemory (input: ReduceInput, options: ReduceOptions = {}): Reduction {
  const rules = options.rules === undefined ? DEFAULT_VIEW_RULES : { ...DEFAULT_VIEW_RULES, ...options.rules }
  const cid = input.memory.id
  const { content, author, created_at: ts, context, lineage } = input.memory.signed.record
  const type = objectTypeOf(content.type, input.supersededType)
  const id = objectIdOf(type, cid)
  const tags = readTagFields(content.tags)

  const attachment = hasEvidence(input.evidence)
    ? buildAttachment({ objectId: id, evidence: input.evidence, trust: input.trust }, options.hashLine)
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
  // Built in place (no copy to drop absent fields or to append the hash): absent optional fields are
  // never set (record-v1 §2.2), and the hash is the line's own, taken before it is set.
  const line: Record<string, unknown> = {}
  put(line, 'schema_version', OBJECT_SCHEMA_VERSION)
  put(line, 'id', id)
  put(line, 'type', type)
  put(line, 'scope', input.scope)
  put(line, 'ts', ts)
  put(line, 'summary', fields.summary)
  put(line, 'status', fields.status)
  put(line, 'horizon', fields.horizon)
  put(line, 'salience', fields.salience)
  put(line, 'confidence', context.confidence)
  put(line, 'tags', fields.tags)
  put(line, 'project', fields.project)
  put(line, 'source', cid)
  put(line, 'review_at', fields.review_at)
  put(line, 'due_at', fields.due_at)
  put(line, 'evidence_ref', attachment?.id)
  if (lineage.supersedes !== undefined && input.supersededType !== undefined) {
    put(line, 'supersedes', objectIdOf(input.supersededType, lineage.supersedes))
  }
  put(line, 'decision_key', fields.decision_key)
  put(line, 'why', fields.why)
  put(line, 'assumptions', fields.assumptions)
  put(line, 'event_refs', distinct(input.eventRefs))
  put(line, 'visibility', fields.visibility)
  put(line, 'owner', author.agent_id)
  line.hash = (options.hashLine ?? defaultHashLine)(line)
  const object = line as ViewObject
  if (options.selfCheck === false) return { object, attachment }
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
function put (line: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) line[key] = value
}

/** The refs without repeats, first occurrence first (a Set only for long lists: most have 1–4). */
function distinct (refs: readonly string[]): string[] {
  if (refs.length > 16) return [...new Set(refs)]
  const out: string[] = []
  for (const ref of refs) if (!out.includes(ref)) out.push(ref)
  return out
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
