// The one way records enter a node (docs/architecture.md): IngestPipeline and its steps.
export {
  IngestPipeline, type BatchViews, type IngestPipelineInit, type JournaledBatch, type RecordJournal, type RecoveredBatch, type StoredListener
} from './pipeline.js'
export { AcceptBatcher, MAX_ACCEPT_BATCH } from './accept-batcher.js'
export {
  MissingMemories, MAX_MISSING_MEMORIES, MISSING_MEMORY_ATTEMPTS, MISSING_MEMORY_RETRY_MS, type MemoryFetcher, type MissingMemoryTarget
} from './missing-memories.js'
export { RESCORE_CONCURRENCY, INGEST_VERIFY_CONCURRENCY, type IngestResult } from './steps.js'
