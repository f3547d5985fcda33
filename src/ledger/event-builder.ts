import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { EVENT_SCHEMA_VERSION, EventSchema, type EventType, type LedgerEvent, type Visibility } from '../schema/ledger.js'
import { BUS_EVENT_TYPES, DEFAULT_BUS_VISIBILITY, DEFAULT_STREAM_VISIBILITY, MAX_LINE_BYTES } from './constants.js'
import { canonicalCopy, isWellFormed } from './canonical-copy.js'
import { genericCanonicalJson, HASH_PREFIX, sha256Hex } from './hash.js'
import { eventIdFor, isTypedId } from './ids.js'

/**
 * Turns a caller's input into a complete `diasync-v1-event` (spec §5) and the exact line stored for
 * it. Pure: the time, the Lamport clock and the ids of instance and run are passed in.
 */

/** What a caller supplies; the ledger fills in every other required field of spec §5. */
export interface EventInput {
  type: EventType
  /** Who caused the event: a `did:key`, or `node`. */
  actor: string
  /** Whose memory it concerns. */
  owner: string
  payload: Record<string, unknown>
  /** Deterministic per logical event (spec §8): the same key is stored once per scope. */
  idempotency_key: string
  /** event_ids this event depends on. @default [] */
  causal_refs?: string[]
  /** @default 'private' on streams/, 'shared' on bus/ */
  visibility?: Visibility
  /** The highest lc this event causally follows from elsewhere (a peer's event): lc = max(last, observedLc) + 1. */
  observedLc?: number
}

export interface EventContext {
  scope: string
  instanceId: string
  runId: string
  tsWall: string
}

export interface BuiltEvent {
  event: LedgerEvent
  /** The stored line (without newline). */
  line: string
}

/** spec §4: events addressed to others go to the scope's `bus/`, the rest to the instance's `streams/`. */
export function isBusEvent (type: EventType): boolean {
  return BUS_EVENT_TYPES.has(type)
}

/** SCHEMA_INVALID naming the input's position and the failing field. */
function invalid (index: number, message: string, cause?: unknown): IsnadError {
  return new IsnadError('SCHEMA_INVALID', `event input ${index}: ${message}`, { details: { index }, cause })
}

/** The caller's part of an event, checked with the fields of the spec §5 contract (EventSchema). */
export const EventInputSchema = z.strictObject({
  type: EventSchema.shape.type,
  actor: EventSchema.shape.actor,
  owner: EventSchema.shape.owner,
  payload: EventSchema.shape.payload,
  idempotency_key: EventSchema.shape.idempotency_key,
  causal_refs: EventSchema.shape.causal_refs.optional(),
  visibility: EventSchema.shape.visibility.optional(),
  observedLc: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()
})

const INPUT_KEYS: ReadonlySet<string> = new Set(Object.keys(EventInputSchema.shape))
const TYPES: ReadonlySet<unknown> = new Set(EventSchema.shape.type.options)
const VISIBILITY_VALUES: ReadonlySet<unknown> = new Set(EventSchema.shape.visibility.options)

/** At most this many causal refs (EventSchema's causal_refs); a unit test checks the schema refuses one more. */
export const MAX_CAUSAL_REFS = 64

/** An array of at most MAX_CAUSAL_REFS event ids, every index holding one (no holes). */
function areEventIds (refs: unknown): boolean {
  if (!Array.isArray(refs) || refs.length > MAX_CAUSAL_REFS) return false
  for (let i = 0; i < refs.length; i++) if (!isTypedId('event', refs[i])) return false
  return true
}

function hasLength (value: unknown, schema: { minLength: number | null, maxLength: number | null }): boolean {
  return typeof value === 'string' && value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity)
}

/**
 * True only for an input EventInputSchema certainly accepts, checked directly: what the node builds
 * itself (no observed clock; the payload a plain-data object, see canonicalCopy).
 * Everything else, valid or not, goes through the schema, which also words the error. A unit test
 * checks on random inputs that the schema accepts whatever this accepts.
 */
export function isPlainEventInput (input: EventInput, payloadIsPlain: boolean): boolean {
  const { payload } = input
  if (!payloadIsPlain || typeof payload !== 'object' || payload === null || Array.isArray(payload) || Object.getOwnPropertySymbols(payload).length > 0) return false
  for (const key in input) if (!INPUT_KEYS.has(key)) return false
  const { shape } = EventInputSchema
  return TYPES.has(input.type) && hasLength(input.actor, shape.actor) && hasLength(input.owner, shape.owner) &&
    hasLength(input.idempotency_key, shape.idempotency_key) && input.observedLc === undefined &&
    (input.causal_refs === undefined || areEventIds(input.causal_refs)) &&
    (input.visibility === undefined || VISIBILITY_VALUES.has(input.visibility))
}

/** The checks a lookup depends on, before anything else happens to a batch. */
export function assertInputKeys (inputs: readonly EventInput[]): void {
  for (const [index, input] of inputs.entries()) {
    if (typeof input !== 'object' || input === null) throw invalid(index, 'not an object')
    const key: unknown = input.idempotency_key
    if (typeof key !== 'string' || key.length === 0) throw invalid(index, 'idempotency_key must be a non-empty string')
  }
}

/** The next Lamport value (spec §5 `lc`): past everything seen locally and everything observed. */
export function nextLc (last: number, observedLc: number | undefined, index: number): number {
  if (observedLc !== undefined && (!Number.isSafeInteger(observedLc) || observedLc < 0)) {
    throw invalid(index, `observedLc must be a non-negative integer, got ${String(observedLc)}`)
  }
  return Math.max(last, observedLc ?? 0) + 1
}

const EventContextSchema = z.strictObject({
  scope: EventSchema.shape.scope,
  instanceId: EventSchema.shape.instance_id,
  runId: EventSchema.shape.run_id,
  tsWall: EventSchema.shape.ts_wall
})

/** Contexts already checked: a ledger builds every event of one append call with the same one. */
const checkedContexts = new WeakSet<EventContext>()

/** The ledger's part of the envelope: a clock that returns no valid UTC instant must not reach a file. */
function assertContext (ctx: EventContext): void {
  if (checkedContexts.has(ctx)) return
  const checked = EventContextSchema.safeParse(ctx)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new IsnadError('USAGE', `invalid event context: ${issue === undefined ? '' : `${issue.path.join('.')}: ${issue.message}`}`, { cause: checked.error })
  }
  checkedContexts.add(ctx)
}

/** RFC 8785 §3.2.2.2: a string is serialised as JSON.stringify does; lone surrogates are not I-JSON. */
function jcsString (value: string, field: string, index: number): string {
  if (!isWellFormed(value)) throw invalid(index, `${field} contains a lone surrogate`)
  return JSON.stringify(value)
}

function parseInput (input: EventInput, index: number): EventInput {
  const parsed = EventInputSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalid(index, issue === undefined ? 'invalid' : `${issue.path.join('.') || '(input)'}: ${issue.message}`, parsed.error)
  }
  return parsed.data
}

/**
 * The payload's canonical JSON and the payload as a reader of the line gets it, for a payload that is
 * not plain data (plain data has its sorted deep copy made by canonicalCopy, the text from it).
 */
function canonicalPayload (payload: Record<string, unknown>, index: number): { text: string, copy: Record<string, unknown> } {
  let text: string
  try {
    text = genericCanonicalJson(payload)
  } catch (err) {
    throw invalid(index, `payload: ${err instanceof Error ? err.message : 'not canonical JSON'}`, err)
  }
  return { text, copy: JSON.parse(text) as Record<string, unknown> }
}

/**
 * The stored line is the RFC 8785 (JCS) canonical JSON of the event without `hash` (spec §8), with
 * `hash` appended as its last member, so the very bytes that were hashed are what the file shows.
 * The envelope's members are written here in JCS order (sorted by UTF-16 code units; a unit test
 * checks the result equals `canonicalize` of the whole event) and only the payload is canonicalised:
 * the envelope is the same few fields on every event, the hot path of group commit. The returned
 * event's payload is exactly what a reader of the line gets (canonicalisation refuses NaN, ±Infinity,
 * lone surrogates and cycles, and turns a Date into its ISO string, as JSON does). An input the node
 * built from plain data (isPlainEventInput, canonicalCopy) skips the schema parse and the generic
 * serialiser; the bytes are the same.
 */
export function buildEvent (input: EventInput, ctx: EventContext, lc: number, index: number): BuiltEvent {
  assertContext(ctx)
  const plain = canonicalCopy(input.payload)
  const checked = isPlainEventInput(input, plain !== undefined) ? input : parseInput(input, index)
  const { type, actor, owner, idempotency_key: key } = checked
  const causalRefs = checked.causal_refs ?? []
  const visibility = checked.visibility ?? (isBusEvent(type) ? DEFAULT_BUS_VISIBILITY : DEFAULT_STREAM_VISIBILITY)
  const { text: payloadJson, copy: payload } = plain ?? canonicalPayload(input.payload, index)
  const eventId = eventIdFor(ctx.scope, key)
  // ids, scope, ts_wall, type and visibility match ASCII-only patterns: JSON.stringify is their JCS form.
  const canonical = `{"actor":${jcsString(actor, 'actor', index)},"causal_refs":${JSON.stringify(causalRefs)}` +
    `,"event_id":"${eventId}","idempotency_key":${jcsString(key, 'idempotency_key', index)}` +
    `,"instance_id":"${ctx.instanceId}","lc":${lc},"owner":${jcsString(owner, 'owner', index)},"payload":${payloadJson}` +
    `,"run_id":"${ctx.runId}","schema_version":"${EVENT_SCHEMA_VERSION}","scope":"${ctx.scope}","ts_wall":"${ctx.tsWall}"` +
    `,"type":"${type}","visibility":"${visibility}"}`
  const hash = HASH_PREFIX + sha256Hex(canonical)
  const event: LedgerEvent = {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: eventId,
    type,
    scope: ctx.scope,
    instance_id: ctx.instanceId,
    run_id: ctx.runId,
    actor,
    ts_wall: ctx.tsWall,
    lc,
    causal_refs: [...causalRefs],
    visibility,
    owner,
    payload,
    idempotency_key: key,
    hash
  }
  const line = `${canonical.slice(0, -1)},"hash":"${hash}"}`
  // A UTF-16 unit is at most 3 UTF-8 bytes: short lines skip the count.
  if (line.length * 3 >= MAX_LINE_BYTES && Buffer.byteLength(line, 'utf8') + 1 > MAX_LINE_BYTES) {
    throw new IsnadError('RECORD_TOO_LARGE', `event input ${index}: the event line exceeds ${MAX_LINE_BYTES} bytes`, { details: { index } })
  }
  return { event, line }
}
