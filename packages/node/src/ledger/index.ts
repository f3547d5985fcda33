/**
 * The `.memory/` ledger (Memory Format Spec V3.1, docs/architecture.md, "The data directory"): the data directory's layout, line
 * hashing and typed ids, the durable group-commit JSONL appender every ledger file goes through,
 * and the append-only event log with crash recovery and a single-writer lock.
 */
export * from './constants.js'
export {
  createDataLayout, DATA_DIRECTORIES, LEDGER_FILES, utcDay, streamShardPath, busShardPath, streamDirectory, busDirectory,
  ledgerFilePath, writerLockPath, dataRelative, archivePathFor, tornEvidencePath,
  type DataLayoutHooks, type LedgerFileName
} from './layout.js'
export { canonicalJson, hashLine, verifyLineHash, verifyCanonicalLineText, withLineHash, sha256Hex, HASH_PREFIX } from './line-hash.js'
export { encodeBase32, randomId, derivedId, eventIdFor, isTypedId, type RandomBytes } from './ids.js'
export { JsonlAppender, type AppenderInit, type AppenderStats } from './appender.js'
export { readRawLines, type RawLine, type ReadLinesOptions } from './line-reader.js'
export {
  readEntries, hashedLineValidator, validateEventLine,
  type LedgerEntry, type EntryLocation, type CorruptReason, type LineCheck, type LineValidator
} from './entries.js'
export {
  InstanceLineSchema, LeaseLineSchema, TornTailFindingSchema, WriterLockInfoSchema,
  validateInstanceLine, validateLeaseLine, validateOperationalLine,
  type InstanceLine, type LeaseLine, type TornTailFinding, type WriterLockInfo
} from './coordination-schema.js'
export { inspectTail, type TailState, type InspectTailOptions } from './tail.js'
export { recoverTail, type RecoveryContext, type Recovered } from './recovery.js'
export { acquireWriterLock, releaseWriterLock, isHolderAlive, type AcquireLockInit, type AcquiredLock } from './writer-lock.js'
export { listScopeShards, listWritableShards, type ShardRef } from './event-shards.js'
export { mergeShards, type EventEntry, type MergeOptions } from './merge.js'
export { createMemoryIdempotency, createLedgerScanIdempotency, type IdempotencyIndex, type LedgerScanInit } from './idempotency.js'
export { buildEvent, isBusEvent, nextLc, type EventInput, type EventContext, type BuiltEvent } from './event-builder.js'
export { readSnapshotEntries, snapshotScope, strictEntries, type ScopeSnapshot } from './event-reader.js'
export { openEventLedger, type EventLedger, type EventLedgerInit, type AppendResult, type AppendOptions, type AppendedLine } from './event-ledger.js'
export {
  PACK_EVENT_TYPE, PACKS_DIR, PACK_INLINE_MAX_BYTES, PACK_PAGE_INLINE_MAX_BYTES, packInlineMaxOf, PACK_MAX_RECORDS, PackPayloadSchema, buildPack, readPackCar, packPath,
  packPayloadOf, packNeedsFile, writePackFile, packCarOf, readPackRecords, readPackBlocks, inlineCarAt, packFileName, removePackLeftovers,
  type BuiltPack, type PackPayload
} from './packs.js'
