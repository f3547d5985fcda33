import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { EVENT_SCHEMA_VERSION, EventSchema, type EventType, type LedgerEvent, type Visibility } from '../schema/index.js'
import { BUS_EVENT_TYPES, DEFAULT_BUS_VISIBILITY, DEFAULT_STREAM_VISIBILITY, MAX_LINE_BYTES } from './constants.js'
import { isWellFormed, sortedPlainCopy } from './canonical-copy.js'
import { genericCanonicalJson, HASH_PREFIX, sha256Hex } from './line-hash.js'
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

/**
 * An event and its stored line. The line is kept as the event's canonical JSON without `hash` (one
 * flat string, the very text that was hashed) and is spelled out only when asked for: the ledger
 * writes it into the shard's bytes directly (encodeEventLines), so no second copy of every line is
 * made as a string.
 */
export class BuiltEvent {
  constructor (readonly event: LedgerEvent, readonly canonical: string) {}

  /** The stored line (without newline): the canonical text with `hash` as its last member. */
  get line (): string {
    return `${this.canonical.slice(0, -1)},"hash":"${this.event.hash}"}`
  }
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
 * itself (no observed clock; the payload a plain-data object, see sortedPlainCopy).
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
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index]
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
function assertWellFormed (value: string, field: string, index: number): void {
  if (!isWellFormed(value)) throw invalid(index, `${field} contains a lone surrogate`)
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
 * not plain data (plain data has its sorted deep copy made by sortedPlainCopy and is serialised with
 * the envelope).
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

/** How many bytes longer a line is than its canonical text: `,"hash":"sha256:<64 hex>"}` replaces the closing brace. */
const HASH_MEMBER_BYTES = ',"hash":"'.length + HASH_PREFIX.length + 64 + '"}'.length - 1

/**
 * The stored line is the RFC 8785 (JCS) canonical JSON of the event without `hash` (spec §8), with
 * `hash` appended as its last member, so the very bytes that were hashed are what the file shows.
 * The envelope's members are inserted here in JCS order (sorted by UTF-16 code units; a unit test
 * checks the result equals `canonicalize` of the whole event), so for a plain-data payload
 * (sortedPlainCopy: every object's members inserted sorted) one native JSON.stringify of the event
 * writes the canonical text, and the returned event is the object that text describes, `hash` last:
 * exactly what a reader of the line gets. Other payloads are canonicalised by the generic serialiser
 * (which refuses NaN, ±Infinity, lone surrogates and cycles, and turns a Date into its ISO string, as
 * JSON does) and spliced into the envelope. An input the node built from plain data
 * (isPlainEventInput) also skips the schema parse; the bytes are the same.
 */
export function buildEvent (input: EventInput, ctx: EventContext, lc: number, index: number): BuiltEvent {
  assertContext(ctx)
  const plainPayload = sortedPlainCopy(input.payload)
  const checked = isPlainEventInput(input, plainPayload !== undefined) ? input : parseInput(input, index)
  const { type, actor, owner, idempotency_key: key } = checked
  // RFC 8785 §3.2.2.2: strings are written as JSON.stringify does; lone surrogates are not I-JSON.
  assertWellFormed(actor, 'actor', index)
  assertWellFormed(key, 'idempotency_key', index)
  assertWellFormed(owner, 'owner', index)
  const causalRefs = checked.causal_refs === undefined || checked.causal_refs.length === 0 ? [] : [...checked.causal_refs]
  const visibility = checked.visibility ?? (isBusEvent(type) ? DEFAULT_BUS_VISIBILITY : DEFAULT_STREAM_VISIBILITY)
  const eventId = eventIdFor(ctx.scope, key)
  let event: LedgerEvent
  let canonical: string
  if (plainPayload !== undefined) {
    // Members in JCS order; `hash` is undefined until the text is hashed, and JSON.stringify leaves an
    // undefined member out. The other values are JSON already: ids, scope, ts_wall, type and
    // visibility match ASCII-only patterns, lc is a safe integer, the strings were checked above.
    const unhashed = {
      actor, causal_refs: causalRefs, event_id: eventId, idempotency_key: key, instance_id: ctx.instanceId, lc, owner,
      payload: plainPayload, run_id: ctx.runId, schema_version: EVENT_SCHEMA_VERSION, scope: ctx.scope, ts_wall: ctx.tsWall,
      type, visibility, hash: undefined as string | undefined
    }
    canonical = JSON.stringify(unhashed)
    unhashed.hash = HASH_PREFIX + sha256Hex(canonical)
    event = unhashed as LedgerEvent
  } else {
    const { text: payloadJson, copy: payload } = canonicalPayload(input.payload, index)
    canonical = `{"actor":${JSON.stringify(actor)},"causal_refs":${JSON.stringify(causalRefs)}` +
      `,"event_id":"${eventId}","idempotency_key":${JSON.stringify(key)}` +
      `,"instance_id":"${ctx.instanceId}","lc":${lc},"owner":${JSON.stringify(owner)},"payload":${payloadJson}` +
      `,"run_id":"${ctx.runId}","schema_version":"${EVENT_SCHEMA_VERSION}","scope":"${ctx.scope}","ts_wall":"${ctx.tsWall}"` +
      `,"type":"${type}","visibility":"${visibility}"}`
    event = {
      actor, causal_refs: causalRefs, event_id: eventId, idempotency_key: key, instance_id: ctx.instanceId, lc, owner,
      payload, run_id: ctx.runId, schema_version: EVENT_SCHEMA_VERSION, scope: ctx.scope, ts_wall: ctx.tsWall,
      type, visibility, hash: HASH_PREFIX + sha256Hex(canonical)
    }
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: short lines skip the count.
  if ((canonical.length + HASH_MEMBER_BYTES) * 3 >= MAX_LINE_BYTES && Buffer.byteLength(canonical, 'utf8') + HASH_MEMBER_BYTES + 1 > MAX_LINE_BYTES) {
    throw new IsnadError('RECORD_TOO_LARGE', `event input ${index}: the event line exceeds ${MAX_LINE_BYTES} bytes`, { details: { index } })
  }
  return new BuiltEvent(event, canonical)
}

/** `,"hash":"` before the hash of a line: copied into the shard's bytes rather than written from a string. */
const HASH_MEMBER_START = Buffer.from(',"hash":"', 'latin1')

/**
 * The stored lines of `events`, each ending in a newline, as the bytes to append to a shard: each
 * canonical text is written once, its closing brace overwritten by the `hash` member.
 */
export function encodeEventLines (events: readonly BuiltEvent[]): Buffer {
  let total = 0
  for (const built of events) total += Buffer.byteLength(built.canonical, 'utf8') + HASH_MEMBER_BYTES + 1
  const out = Buffer.allocUnsafe(total)
  let at = 0
  for (const { canonical, event } of events) {
    at += out.write(canonical, at, 'utf8') - 1
    out.set(HASH_MEMBER_START, at)
    at += HASH_MEMBER_START.length
    at += out.write(event.hash, at, 'latin1')
    out[at++] = 0x22 // "
    out[at++] = 0x7d // }
    out[at++] = 0x0a // \n
  }
  return out
}
