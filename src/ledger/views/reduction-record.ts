import { z } from 'zod'
import {
  ID_PREFIXES, VIEW_OBJECT_TYPES, isoTimestamp, lineHash, recordCid, typedId, viewObjectId,
  type EventType
} from '../../schema/index.js'
import { REDUCERS_FILE, REDUCTION_SCHEMA_VERSION, VIEW_REDUCER } from './constants.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import { reductionIdOf } from '../ids.js'
import type { Reduction } from './reduce.js'
import { attachShardPath, viewShardPath } from './view-shards.js'

/**
 * A line of `coordination/reducers.jsonl` (Memory Format Spec V3.1 §10): which reducer turned which
 * memory into which object, in which shard, when. One line per new state of an object; `previous`
 * chains the reductions of one object, so its history can be walked back.
 */
export const ReductionRecordSchema = z.strictObject({
  schema_version: z.literal(REDUCTION_SCHEMA_VERSION),
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
  /** The reduction of the same object before this one. */
  previous: typedId(ID_PREFIXES.reduction).optional(),
  /** When the reduction ran (passed in, never read from a clock here). */
  ts: isoTimestamp,
  hash: lineHash
})
export type ReductionRecord = z.infer<typeof ReductionRecordSchema>

/** Where a reduction's three lines go, relative to the data directory. */
export interface ReductionFiles {
  object: string
  attachment?: string
  reducers: string
}

export function reductionFilesOf (reduction: Reduction): ReductionFiles {
  const { object, attachment } = reduction
  const files: ReductionFiles = { object: viewShardPath(object.type, object.scope, object.ts), reducers: REDUCERS_FILE }
  if (attachment !== null) files.attachment = attachShardPath(attachment.scope, attachment.ts)
  return files
}

/**
 * `files` are the reduction's reductionFilesOf, when the caller has them; `hash` the line hash (the
 * ledger's is injected by the node).
 */
export function buildReductionRecord (
  reduction: Reduction, now: string, previous?: string, hash: HashLine = defaultHashLine, files: ReductionFiles = reductionFilesOf(reduction)
): ReductionRecord {
  const { object, attachment } = reduction
  const memory = object.source
  if (memory === undefined) throw new TypeError(`view object ${object.id} has no source memory`)
  const line: Partial<ReductionRecord> = {
    schema_version: REDUCTION_SCHEMA_VERSION,
    id: reductionIdOf(object.id, object.hash, attachment?.hash, previous),
    reducer: VIEW_REDUCER,
    memory,
    object: object.id,
    object_type: object.type,
    object_hash: object.hash,
    shard: files.object
  }
  if (attachment !== null && files.attachment !== undefined) {
    line.attachment = attachment.id
    line.attachment_hash = attachment.hash
    line.attachment_shard = files.attachment
  }
  if (previous !== undefined) line.previous = previous
  line.ts = now
  // Set in place, last (so a printed line ends with it), from the line before it has one.
  line.hash = hash(line)
  return line as ReductionRecord
}

/** What the event log needs to append the `memory.reduced` event (spec §5) for a reduction. */
export interface ReducedEventDraft {
  type: Extract<EventType, 'memory.reduced'>
  /** Deterministic: the same reduction is one event, also when re-announced after a crash (spec §8). */
  idempotency_key: string
  /** The events the object was reduced from (the event schema allows at most 64). */
  causal_refs: string[]
  visibility: Reduction['object']['visibility']
  owner: string
  scope: string
  payload: {
    reducer: string
    reduction: string
    memory: string
    object: string
    object_type: Reduction['object']['type']
    object_hash: string
    shard: string
    attachment?: string
  }
}

/** The `memory.reduced` event of the reduction `reductionId` (a new one, or the one already recorded). */
export function reducedEventOf (reductionId: string, reduction: Reduction, files: ReductionFiles = reductionFilesOf(reduction)): ReducedEventDraft {
  const { object, attachment } = reduction
  const payload: ReducedEventDraft['payload'] = {
    reducer: VIEW_REDUCER,
    reduction: reductionId,
    memory: object.source ?? '',
    object: object.id,
    object_type: object.type,
    object_hash: object.hash,
    shard: files.object
  }
  if (attachment !== null) payload.attachment = attachment.id
  return {
    type: 'memory.reduced',
    idempotency_key: `memory.reduced:${reductionId}`,
    causal_refs: object.event_refs.slice(-64),
    visibility: object.visibility,
    owner: object.owner,
    scope: object.scope,
    payload
  }
}
