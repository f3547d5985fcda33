import { z } from 'zod'
import {
  ANCHOR_STATES, ANCHOR_TYPES, ATTESTATION_VERDICTS, ID_PREFIXES, TRUST_LEVELS, didKey, isoTimestamp, lineHash,
  recordCid, scopeName, sortInPlace, typedId, viewObjectId
} from '../../schema/index.js'
import { ATTACHMENT_SCHEMA_VERSION, ATTACHMENT_V1_SCHEMA_VERSION } from './constants.js'
import type { ViewEvidence, ViewTrust } from './reducer-input.js'
import { hashLine as defaultHashLine, type HashLine } from './view-line-hash.js'
import { attachmentIdOf } from '../ids.js'

/**
 * A line of `views/attach/<scope>/YYYY-MM.jsonl` (Memory Format Spec V3.1 §3 names the folder; the
 * contents are isnad's): the evidence of one view object, which the object points to by
 * `evidence_ref` (this line's `id`). Objects stay short and greppable; the evidence sits beside them.
 * One attachment per object: a newer line with the same `id` replaces the older (spec §9).
 *
 * The compact form (v2) writes what the evidence is, keyed by the records' CIDs, and
 * leaves out what the object line or the records hold: the object is the line whose `evidence_ref`
 * is this `id` (grep it), its scope and month are this shard's, its memory is the object's `source`,
 * and each attestation's witness (each anchor's signer) is in the record its CID names.
 */

const trustOfLine = z.strictObject({ score: z.number().min(0).max(1), level: z.enum(TRUST_LEVELS) })
const anchorEntry = z.strictObject({
  type: z.enum(ANCHOR_TYPES),
  reference: z.string().min(1),
  hash: z.string().min(1),
  state: z.enum(ANCHOR_STATES)
})

export const AttachmentSchema = z.strictObject({
  schema_version: z.literal(ATTACHMENT_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.attachment),
  /** Attestation CID → its verdict; absent when there is none. */
  attestations: z.record(recordCid, z.enum(ATTESTATION_VERDICTS)).optional(),
  /** Anchor CID → what it claims and the state its verification reached; absent when there is none. */
  anchors: z.record(recordCid, anchorEntry).optional(),
  /** The trust the node computed when it reduced (local, never truth: docs/trust.md). */
  trust: trustOfLine,
  hash: lineHash
}).refine((line) => line.attestations !== undefined || line.anchors !== undefined, {
  message: 'an attachment holds attestations or anchors'
})
export type Attachment = z.infer<typeof AttachmentSchema>

/** The line written before the compact form (every field spelled out); still read and verified. */
export const AttachmentV1Schema = z.strictObject({
  schema_version: z.literal(ATTACHMENT_V1_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.attachment),
  /** The view object this attachment belongs to. */
  object: viewObjectId,
  scope: scopeName,
  /** The object's `ts`, so both land in the same month's shards. */
  ts: isoTimestamp,
  /** The memory CID: the first evidence reference, fetchable from any node. */
  memory: recordCid,
  anchors: z.array(z.strictObject({ id: recordCid, ...anchorEntry.shape })),
  attestations: z.array(z.strictObject({
    id: recordCid,
    verdict: z.enum(ATTESTATION_VERDICTS),
    witness: didKey.optional()
  })),
  trust: trustOfLine,
  hash: lineHash
})
export type AttachmentV1 = z.infer<typeof AttachmentV1Schema>

/** Either form: what `ledger verify` checks a line of views/attach/ against ("read both forms forever"). */
export const AnyAttachmentSchema = z.union([AttachmentSchema, AttachmentV1Schema])

export interface AttachmentInput {
  objectId: string
  evidence: ViewEvidence
  trust: ViewTrust
}

/** True when there is anything to attach: an attachment exists iff the memory has anchors or witnesses. */
export function hasEvidence (evidence: ViewEvidence | undefined): evidence is ViewEvidence {
  return evidence !== undefined && (evidence.anchors.length > 0 || evidence.attestations.length > 0)
}

/** The attachment line, entries in id order so a printed line never depends on the caller's order. */
export function buildAttachment (input: AttachmentInput, hash: HashLine = defaultHashLine): Attachment {
  const line: Record<string, unknown> = {
    schema_version: ATTACHMENT_SCHEMA_VERSION,
    id: attachmentIdOf(input.objectId)
  }
  const { attestations, anchors } = input.evidence
  if (attestations.length > 0) {
    const entries: Record<string, string> = {}
    // Sorted copies (sortInPlace: stable, and a memory has few entries); a CID twice keeps its last verdict.
    for (const a of sortInPlace(attestations.slice(), byId)) entries[a.id] = a.verdict
    line.attestations = entries
  }
  if (anchors.length > 0) {
    const entries: Record<string, z.infer<typeof anchorEntry>> = {}
    for (const a of sortInPlace(anchors.slice(), byId)) entries[a.id] = { type: a.type, reference: a.reference, hash: a.hash, state: a.state }
    line.anchors = entries
  }
  line.trust = { score: input.trust.score, level: input.trust.level }
  // Set in place, last (so a printed line ends with it), from the line before it has one.
  line.hash = hash(line)
  return line as Attachment
}

// Ids are ASCII CIDs: code-unit order is byte order.
function byId (a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
