export { createMemoryRecordStore, MemoryRecordStore } from './memory-record-store.js'
