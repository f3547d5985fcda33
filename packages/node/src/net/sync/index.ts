export * from './constants.js'
export { createInterestSyncHandler, createSyncHandler, syncWithPeer, type SyncOptions, type SyncResult } from './sync.js'
export { interestsOf, MAX_INTEREST_NAMES, MAX_INTEREST_SHARDS, type SyncInterests } from './interest.js'
