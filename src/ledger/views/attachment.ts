import { z } from 'zod'
import {
  ANCHOR_STATES, ANCHOR_TYPES, ATTESTATION_VERDICTS, ID_PREFIXES, TRUST_LEVELS, didKey, isoTimestamp, lineHash,
  recordCid, scopeName, sortInPlace, typedId, viewObjectId
} from '../../schema/index.js'
import { ATTACHMENT_SCHEMA_VERSION } from './constants.js'
import type { ViewEvidence, ViewTrust } from './reducer-input.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import { attachmentIdOf } from '../ids.js'

/**
 * A line of `views/attach/<scope>/YYYY-MM.jsonl` (Memory Format Spec V3.1 §3 names the folder; the
 * contents are isnad's): the anchors and evidence references of one view object, which the object
 * points to by `evidence_ref`. Objects stay short and greppable; the proof material sits beside them.
 * One attachment per object: a newer line with the same `id` replaces the older (spec §9).
 */
export const AttachmentSchema = z.strictObject({
  schema_version: z.literal(ATTACHMENT_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.attachment),
  /** The view object this attachment belongs to. */
  object: viewObjectId,
  scope: scopeName,
  /** The object's `ts`, so both land in the same month's shards. */
  ts: isoTimestamp,
  /** The memory CID: the first evidence reference, fetchable from any node. */
  memory: recordCid,
  anchors: z.array(z.strictObject({
    id: recordCid,
    type: z.enum(ANCHOR_TYPES),
    reference: z.string().min(1),
    hash: z.string().min(1),
    state: z.enum(ANCHOR_STATES)
  })),
  attestations: z.array(z.strictObject({
    id: recordCid,
    verdict: z.enum(ATTESTATION_VERDICTS),
    witness: didKey.optional()
  })),
  /** The trust the node computed when it reduced (local, never truth: DESIGN §2). */
  trust: z.strictObject({ score: z.number().min(0).max(1), level: z.enum(TRUST_LEVELS) }),
  hash: lineHash
})
export type Attachment = z.infer<typeof AttachmentSchema>

export interface AttachmentInput {
  objectId: string
  scope: string
  ts: string
  memory: string
  evidence: ViewEvidence
  trust: ViewTrust
}

/** True when there is anything to attach: an attachment exists iff the memory has anchors or witnesses. */
export function hasEvidence (evidence: ViewEvidence | undefined): evidence is ViewEvidence {
  return evidence !== undefined && (evidence.anchors.length > 0 || evidence.attestations.length > 0)
}

/** The attachment line, entries sorted by id so the caller's order never changes the hash. */
export function buildAttachment (input: AttachmentInput, hash: HashLine = defaultHashLine): Attachment {
  // Copies first (the entries are new objects anyway: only the line's fields), then sorted in place,
  // stably (sortInPlace: a memory has few entries, and Array#sort allocates).
  const anchors = sortInPlace(input.evidence.anchors
    .map((a) => ({ id: a.id, type: a.type, reference: a.reference, hash: a.hash, state: a.state })), byId)
  const attestations = sortInPlace(input.evidence.attestations
    .map((a): Attachment['attestations'][number] => (a.witness === undefined ? { id: a.id, verdict: a.verdict } : { id: a.id, verdict: a.verdict, witness: a.witness })), byId)
  const line: Omit<Attachment, 'hash'> & { hash?: string } = {
    schema_version: ATTACHMENT_SCHEMA_VERSION,
    id: attachmentIdOf(input.objectId),
    object: input.objectId,
    scope: input.scope,
    ts: input.ts,
    memory: input.memory,
    anchors,
    attestations,
    trust: { score: input.trust.score, level: input.trust.level }
  }
  // Set in place, last (so a printed line ends with it), from the line before it has one.
  line.hash = hash(line)
  return line as Attachment
}

// Ids are ASCII CIDs: code-unit order is byte order.
function byId (a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
