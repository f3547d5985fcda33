/**
 * Views (Memory Format Spec V3.1 §4, §6; docs/views.md): `diasync-v1-object` lines reduced from memories
 * into `views/{facts,decisions,commitments}/<scope>/YYYY-MM.jsonl`, their attachments in
 * `views/attach/`, each round's reductions in `coordination/reducers.jsonl`. The reducer is pure; only
 * writer.ts and fs-lines.ts do I/O. docs/views.md documents the mapping.
 */
export { reduceMemory, type Reduction, type ReduceOptions } from './reduce.js'
export {
  viewTrustOf, viewEvidenceOf,
  type ReduceInput, type ReducibleMemory, type ViewTrust, type ViewEvidence, type EvidenceAttestation, type EvidenceAnchor,
  type ViewHints, type StoredEvidence
} from './reducer-input.js'
export { objectTypeOf, horizonOf, salienceOf, statusOf, DEFAULT_VIEW_RULES, type ViewRules } from './rules.js'
export { readTagFields, slugOf, isCalendarDate, type TagFields } from './tags.js'
export {
  AttachmentSchema, AttachmentV1Schema, AnyAttachmentSchema, buildAttachment, hasEvidence,
  type Attachment, type AttachmentV1, type AttachmentInput
} from './attachment.js'
export {
  ReductionRecordSchema, ReductionRecordV2Schema, ReductionRecordV1Schema, AnyReductionRecordSchema, buildReductionRound, roundEntryOf, reducedEventsOf,
  reductionFilesOf, type ReductionRecord, type ReductionRecordV2, type ReductionRecordV1, type ReductionFiles, type RoundEntry,
  type ReducedEventDraft
} from './reduction-record.js'
export { monthOf, viewShardPath, attachShardPath } from './view-shards.js'
export {
  checkReductions, attachShardOf,
  type ReductionCheck, type ReductionCheckInput, type ReducerLineRef, type ViewLineRef, type UnresolvedReduction, type UnrecordedLine
} from './reduction-check.js'
export { hashLine, withHash, isLineHashValid, type HashLine } from './view-line-hash.js'
export { deriveTypedId, objectIdOf, attachmentIdOf, reductionIdOf } from '../ids.js'
export { createViewWriter, type ViewWriter, type ViewWriterInit, type ViewWriteResult, type ViewRoundResult } from './writer.js'
export { createFsAppend, readJsonlLines, type AppendLines, type ReadLines } from './fs-lines.js'
export * from './constants.js'
