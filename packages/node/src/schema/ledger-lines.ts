import { z } from 'zod'
import { isoTimestamp, recordCid } from './primitives.js'

/**
 * The `.memory/` ledger contracts of the Memory Format Spec V3.1 (its §5–§8; docs/architecture.md, "The data directory"):
 * `diasync-v1-event` lines in streams/ and bus/, `diasync-v1-object` lines in views/.
 * Every line carries `hash` = `sha256:` + hex SHA-256 of the RFC 8785 (JCS) canonical JSON of the
 * line without its `hash` field (spec §8).
 */

export const EVENT_SCHEMA_VERSION = 'diasync-v1-event'
export const OBJECT_SCHEMA_VERSION = 'diasync-v1-object'

/** Typed id prefixes (spec §7): `<prefix>_<26 lower-case base32 characters>`. */
export const ID_PREFIXES = {
  event: 'evt',
  run: 'run',
  instance: 'ins',
  fact: 'fac',
  decision: 'dec',
  commitment: 'com',
  attachment: 'att',
  finding: 'fnd',
  scorecard: 'hsc',
  plan: 'pln',
  execution: 'exe',
  lease: 'lse',
  conflict: 'cfl',
  reduction: 'red',
  cursor: 'cur'
} as const
export type IdKind = keyof typeof ID_PREFIXES

export function typedId (prefix: string): z.ZodString {
  return z.string().regex(new RegExp(`^${prefix}_[a-z2-7]{26}$`), `must be a ${prefix}_ id`)
}

/** The spec's event types plus the node's own (docs/architecture.md, "The data directory"). */
export const EVENT_TYPES = [
  'memory.instance.started',
  'memory.instance.heartbeat',
  'memory.instance.stopped',
  'memory.captured',
  'memory.distilled',
  'memory.published',
  'memory.reduced',
  'memory.reconciled',
  'memory.checkpointed',
  'memory.handoff',
  'memory.witness_requested',
  'memory.attested',
  'memory.anchored',
  /** A batch of records stored once, in a pack (docs/ledger-packs.md): one event, one Merkle leaf per record. */
  'memory.packed',
  /** A check of an anchor's evidence (protocols/anchors-v1.md §6). */
  'memory.anchor_checked',
  /** A memory selection's trace (FDR-Memory v1.2.0 M-2: every selection is auditable). */
  'memory.selected'
] as const
export type EventType = (typeof EVENT_TYPES)[number]

export const VISIBILITIES = ['private', 'shared', 'public'] as const
export type Visibility = (typeof VISIBILITIES)[number]

/** `sha256:` + 64 lower-case hex digits. */
export const lineHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>')

/** Scope names become directory names: short, lower-case, no path separators (spec §4). */
export const scopeName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be 1–64 of a-z 0-9 . _ - starting with a letter or digit')

/** `did:key:…` of an agent, or `node` for the node's own bookkeeping. */
export const actorName = z.string().min(1).max(128)

export const EventSchema = z.strictObject({
  schema_version: z.literal(EVENT_SCHEMA_VERSION),
  event_id: typedId(ID_PREFIXES.event),
  type: z.enum(EVENT_TYPES),
  scope: scopeName,
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  actor: actorName,
  ts_wall: isoTimestamp,
  /** Lamport clock (spec §5): strictly increasing along one instance's stream. */
  lc: z.number().int().min(1),
  /** event_ids this event depends on. */
  causal_refs: z.array(typedId(ID_PREFIXES.event)).max(64),
  visibility: z.enum(VISIBILITIES),
  owner: actorName,
  payload: z.record(z.string(), z.unknown()),
  /** Deterministic from the logical event: the same key is stored once (spec §8). */
  idempotency_key: z.string().min(1).max(512),
  hash: lineHash
})
export type LedgerEvent = z.infer<typeof EventSchema>

export const VIEW_OBJECT_TYPES = ['fact', 'decision', 'commitment'] as const
export type ViewObjectType = (typeof VIEW_OBJECT_TYPES)[number]

const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')

/** The id of a view object: its type's prefix (spec §7). */
export const viewObjectId = z.string().regex(/^(fac|dec|com)_[a-z2-7]{26}$/, 'must be a fac_, dec_ or com_ id')

export const ViewObjectSchema = z.strictObject({
  schema_version: z.literal(OBJECT_SCHEMA_VERSION),
  id: viewObjectId,
  type: z.enum(VIEW_OBJECT_TYPES),
  scope: scopeName,
  ts: isoTimestamp,
  summary: z.string().min(1),
  status: z.enum(['active', 'superseded', 'disputed', 'done', 'cancelled']),
  horizon: z.enum(['short', 'medium', 'long']),
  salience: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  tags: z.array(z.string()),
  event_refs: z.array(typedId(ID_PREFIXES.event)).min(1),
  visibility: z.enum(VISIBILITIES),
  owner: actorName,
  hash: lineHash,
  // optional fields (spec §6)
  project: z.string().optional(),
  /** The memory CID this object was reduced from. */
  source: recordCid.optional(),
  review_at: calendarDate.optional(),
  due_at: calendarDate.optional(),
  /** An attachment id in views/attach/ holding the anchors and evidence references. */
  evidence_ref: typedId(ID_PREFIXES.attachment).optional(),
  /** The object id this one corrects (spec §9: corrections are new records). */
  supersedes: viewObjectId.optional(),
  decision_key: z.string().optional(),
  why: z.string().optional(),
  assumptions: z.array(z.string()).optional()
})
export type ViewObject = z.infer<typeof ViewObjectSchema>
