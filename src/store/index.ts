export type * from './types.js'
export * from './constants.js'
export { createLevelRecordStore, indexLocationOf, INDEX_FORMAT, LevelRecordStore, type LevelRecordStoreInit } from './level/index.js'
export { createMemoryRecordStore, MemoryRecordStore } from './memory/index.js'
