export * from './constants.js'
export { createSyncHandler, syncWithPeer, type SyncOptions, type SyncResult } from './sync.js'
