import { hash as nodeHash } from 'node:crypto'
import { z } from 'zod'
import {
  ID_PREFIXES, VIEW_OBJECT_TYPES, isoTimestamp, lineHash, recordCid, typedId, viewObjectId,
  type EventType
} from '../../schema/index.js'
import {
  MAX_REDUCTIONS_PER_EVENT, REDUCERS_FILE, REDUCTION_SCHEMA_VERSION, REDUCTION_V1_SCHEMA_VERSION, REDUCTION_V2_SCHEMA_VERSION,
  VIEW_FOLDER_OF_TYPE, VIEW_REDUCER, VIEWS_DIR
} from './constants.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import type { Reduction } from './reduce.js'
import { reductionIdOf } from '../ids.js'
import { attachShardPath, viewShardPath } from './view-shards.js'

/** An object shard's path (view-shards.ts): `views/<facts|decisions|commitments>/<scope>/YYYY-MM.jsonl`. */
const viewShard = z.string().regex(
  new RegExp(`^${VIEWS_DIR}/(${Object.values(VIEW_FOLDER_OF_TYPE).join('|')})/[A-Za-z0-9][^/\\\\]*/\\d{4}-\\d{2}\\.jsonl$`),
  'must be the path of a view object shard'
)

/**
 * A line of `coordination/reducers.jsonl` (Memory Format Spec V3.1 §10; the spec names the file, the
 * lines are isnad's): which objects reached which state, in which shard, when. The round form (v3)
 * is one line per reduction round: shard → object id → reduction id, for every object the
 * round brought to a new state. The reduction id stands for the state: it is derived from the object
 * id, the hash of its line, the hash of its attachment line and the previous reduction of the same
 * object (reductionIdOf), which is the newest earlier entry of that object in the file (of any form),
 * so a round line needs neither the hashes (the view lines carry them) nor `previous` (the file's
 * order gives it). docs/views.md says how to check a state against the view lines.
 */
export const ReductionRecordSchema = z.strictObject({
  schema_version: z.literal(REDUCTION_SCHEMA_VERSION),
  /** When the round ran (passed in, never read from a clock here). */
  ts: isoTimestamp,
  /** Object shard → object id → reduction id, in the order the round reduced them. */
  reductions: z.record(viewShard, z.record(viewObjectId, typedId(ID_PREFIXES.reduction)))
    .refine((shards) => Object.values(shards).some((objects) => Object.keys(objects).length > 0), { message: 'a round line names at least one reduction' }),
  hash: lineHash
})
export type ReductionRecord = z.infer<typeof ReductionRecordSchema>

/**
 * The reducer line of one state, written before the round form (its first compaction):
 * leaves out what the view line holds or the ids say. Still read and verified.
 */
export const ReductionRecordV2Schema = z.strictObject({
  schema_version: z.literal(REDUCTION_V2_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.reduction),
  object: viewObjectId,
  object_hash: lineHash,
  shard: z.string().min(1),
  attachment_hash: lineHash.optional(),
  /** The reduction of the same object before this one. */
  previous: typedId(ID_PREFIXES.reduction).optional(),
  ts: isoTimestamp,
  hash: lineHash
})
export type ReductionRecordV2 = z.infer<typeof ReductionRecordV2Schema>

/** The reducer line written before the compact forms (every field spelled out); still read and verified. */
export const ReductionRecordV1Schema = z.strictObject({
  schema_version: z.literal(REDUCTION_V1_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.reduction),
  reducer: z.literal(VIEW_REDUCER),
  memory: recordCid,
  object: viewObjectId,
  object_type: z.enum(VIEW_OBJECT_TYPES),
  object_hash: lineHash,
  shard: z.string().min(1),
  attachment: typedId(ID_PREFIXES.attachment).optional(),
  attachment_hash: lineHash.optional(),
  attachment_shard: z.string().min(1).optional(),
  previous: typedId(ID_PREFIXES.reduction).optional(),
  ts: isoTimestamp,
  hash: lineHash
})
export type ReductionRecordV1 = z.infer<typeof ReductionRecordV1Schema>

/** Any form: what `ledger verify` checks a line of reducers.jsonl against ("read every form forever"). */
export const AnyReductionRecordSchema = z.discriminatedUnion('schema_version', [ReductionRecordSchema, ReductionRecordV2Schema, ReductionRecordV1Schema])

/** A state a reducer line names (statesOf). */
export interface NamedState {
  reduction: string
  object: string
  shard: string
  /** v1, v2: the hashes the line spells out. */
  hashes?: { object: string, attachment: string | undefined, previous: string | undefined }
  attachmentShard?: string
  memory?: string
}

/** The states one reducer line names, in order. */
export function statesOf (value: ReductionRecord | ReductionRecordV2 | ReductionRecordV1): NamedState[] {
  if (value.schema_version === 'isnad-reduction-v3') {
    const out: NamedState[] = []
    for (const [shard, objects] of Object.entries(value.reductions)) {
      for (const [object, reduction] of Object.entries(objects)) out.push({ reduction, object, shard })
    }
    return out
  }
  const state: NamedState = {
    reduction: value.id,
    object: value.object,
    shard: value.shard,
    hashes: { object: value.object_hash, attachment: value.attachment_hash, previous: value.previous }
  }
  if (value.schema_version === 'isnad-reduction-v1') {
    state.memory = value.memory
    if (value.attachment_shard !== undefined) state.attachmentShard = value.attachment_shard
  }
  return [state]
}

/** Where a reduction's lines go, relative to the data directory. */
export interface ReductionFiles {
  object: string
  attachment?: string
  reducers: string
}

export function reductionFilesOf (reduction: Reduction): ReductionFiles {
  const { object, attachment } = reduction
  const files: ReductionFiles = { object: viewShardPath(object.type, object.scope, object.ts), reducers: REDUCERS_FILE }
  if (attachment !== null) files.attachment = attachShardPath(object.scope, object.ts) // the object's month (docs/views.md)
  return files
}

/** One new state of a round: the object, its shard, and the reduction id of the state (reductionIdOf). */
export interface RoundEntry {
  shard: string
  object: string
  reduction: string
}

/** The entry of a reduction's state, `previous` the object's newest recorded reduction before it. */
export function roundEntryOf (reduction: Reduction, previous?: string, files: ReductionFiles = reductionFilesOf(reduction)): RoundEntry {
  const { object, attachment } = reduction
  return { shard: files.object, object: object.id, reduction: reductionIdOf(object.id, object.hash, attachment?.hash, previous) }
}

/**
 * The round line naming `entries` (at least one, each object once: a round reduces a memory once),
 * grouped by shard in the order given; `hash` the line hash (the ledger's is injected by the node).
 */
export function buildReductionRound (entries: readonly RoundEntry[], now: string, hash: HashLine = defaultHashLine): ReductionRecord {
  if (entries.length === 0) throw new TypeError('a round line names at least one reduction')
  const reductions: Record<string, Record<string, string>> = {}
  for (const { shard, object, reduction } of entries) {
    const objects = reductions[shard] ??= {}
    if (Object.hasOwn(objects, object)) throw new TypeError(`view object ${object} is twice in one round line`)
    objects[object] = reduction
  }
  const line: Partial<ReductionRecord> = { schema_version: REDUCTION_SCHEMA_VERSION, ts: now, reductions }
  // Set in place, last (so a printed line ends with it), from the line before it has one.
  line.hash = hash(line)
  return line as ReductionRecord
}

/**
 * What the event log needs to append a `memory.reduced` event (spec §5): one per reduction round
 * (or per MAX_REDUCTIONS_PER_EVENT reductions of it), naming the reductions the round arrived at,
 * whose lines are in reducers.jsonl. Before the compact form, one event per reduction (docs/views.md).
 */
export interface ReducedEventDraft {
  type: Extract<EventType, 'memory.reduced'>
  /** From the named reductions: the same round recorded again after a crash is one event (spec §8). */
  idempotency_key: string
  /** The ledger events of the batches that asked for the round (the event schema allows at most 64). */
  causal_refs: string[]
  payload: {
    reducer: string
    /** Reduction ids, in the order the round reduced them. */
    reductions: string[]
  }
}

/**
 * The `memory.reduced` events of a round that arrived at `reductionIds` (new states, or states
 * already recorded), MAX_REDUCTIONS_PER_EVENT per event. A retry after a crash that arrives at the
 * same reductions appends nothing: the key is a digest of the ids.
 */
export function reducedEventsOf (reductionIds: readonly string[], causalRefs: readonly string[]): ReducedEventDraft[] {
  const events: ReducedEventDraft[] = []
  for (let at = 0; at < reductionIds.length; at += MAX_REDUCTIONS_PER_EVENT) {
    const reductions = reductionIds.slice(at, at + MAX_REDUCTIONS_PER_EVENT)
    events.push({
      type: 'memory.reduced',
      idempotency_key: `memory.reduced:${nodeHash('sha256', reductions.join(','), 'hex')}`,
      causal_refs: causalRefs.slice(-64),
      payload: { reducer: VIEW_REDUCER, reductions }
    })
  }
  return events
}
