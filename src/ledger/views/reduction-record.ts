import { hash as nodeHash } from 'node:crypto'
import { z } from 'zod'
import {
  ID_PREFIXES, VIEW_OBJECT_TYPES, isoTimestamp, lineHash, recordCid, typedId, viewObjectId,
  type EventType
} from '../../schema/index.js'
import {
  MAX_REDUCTIONS_PER_EVENT, REDUCERS_FILE, REDUCTION_SCHEMA_VERSION, REDUCTION_V1_SCHEMA_VERSION, VIEW_REDUCER
} from './constants.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import { reductionIdOf } from '../ids.js'
import type { Reduction } from './reduce.js'
import { attachShardPath, viewShardPath } from './view-shards.js'

/**
 * A line of `coordination/reducers.jsonl` (Memory Format Spec V3.1 §10): which object reached which
 * state, in which shard, when. One line per new state of an object; `previous` chains the reductions
 * of one object, so its history can be walked back. The compact form (v2) leaves out what the view
 * line holds or the ids say (docs/views.md): the memory is the object's `source`, the object type
 * its id prefix, the attachment id is derived from the object id and lives in the attach shard of
 * the same scope and month, and the reducer is the one this schema version names.
 */
export const ReductionRecordSchema = z.strictObject({
  schema_version: z.literal(REDUCTION_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.reduction),
  object: viewObjectId,
  object_hash: lineHash,
  shard: z.string().min(1),
  attachment_hash: lineHash.optional(),
  /** The reduction of the same object before this one. */
  previous: typedId(ID_PREFIXES.reduction).optional(),
  /** When the reduction ran (passed in, never read from a clock here). */
  ts: isoTimestamp,
  hash: lineHash
})
export type ReductionRecord = z.infer<typeof ReductionRecordSchema>

/** The reducer line written before the compact form (every field spelled out); still read and verified. */
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

/** Either form: what `ledger verify` checks a line of reducers.jsonl against ("read both forms forever"). */
export const AnyReductionRecordSchema = z.discriminatedUnion('schema_version', [ReductionRecordSchema, ReductionRecordV1Schema])

/** Where a reduction's three lines go, relative to the data directory. */
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

/**
 * The compact reducer line of a new state. `files` are the reduction's reductionFilesOf, when the
 * caller has them; `hash` the line hash (the ledger's is injected by the node).
 */
export function buildReductionRecord (
  reduction: Reduction, now: string, previous?: string, hash: HashLine = defaultHashLine, files: ReductionFiles = reductionFilesOf(reduction)
): ReductionRecord {
  const { object, attachment } = reduction
  if (object.source === undefined) throw new TypeError(`view object ${object.id} has no source memory`)
  const line: Partial<ReductionRecord> = {
    schema_version: REDUCTION_SCHEMA_VERSION,
    id: reductionIdOf(object.id, object.hash, attachment?.hash, previous),
    object: object.id,
    object_hash: object.hash,
    shard: files.object
  }
  if (attachment !== null) line.attachment_hash = attachment.hash
  if (previous !== undefined) line.previous = previous
  line.ts = now
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
