import type { RecordStore } from '../types.js'
import { MemoryRecordStore } from './memory-record-store.js'

export { MemoryRecordStore }

/** A RecordStore held in memory (tests, simulations); call `open()` before use. */
export function createMemoryRecordStore (): RecordStore {
  return new MemoryRecordStore()
}
