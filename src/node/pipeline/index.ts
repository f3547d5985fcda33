// The one way records enter a node (docs/architecture.md): IngestPipeline and its steps.
export {
  IngestPipeline, type IngestPipelineInit, type IngestResult, type JournaledBatch, type RecordJournal, type RecoveredBatch, type StoredListener
} from './pipeline.js'
export { RESCORE_CONCURRENCY, INGEST_VERIFY_CONCURRENCY } from './steps.js'
