export * from './constants.js'
export {
  BlockRequestSchema, FETCH_BLOCKS_PROTOCOL, createFetchHandler, fetchBlocks, fetchRecords, type BlockFetchResult, type FetchResult
} from './fetch.js'
export { EvidenceRequestSchema, fetchEvidence, type EvidenceFetchResult } from './evidence.js'
