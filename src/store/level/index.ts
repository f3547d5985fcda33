import { join } from 'node:path'
import { INDEX_DIRECTORY } from '../constants.js'
import type { RecordStore } from '../types.js'
import { LevelRecordStore, type LevelRecordStoreInit } from './level-record-store.js'

export { LevelRecordStore, type LevelRecordStoreInit }
export { INDEX_FORMAT } from './format.js'
export { asIndexError, indexCorruptError, isLevelCorruption } from './damage.js'
export { WriteBatch, type BatchTarget } from './sublevels.js'
export { LATIN1 } from './binary-keys.js'

/** Where a data directory keeps its LevelDB indexes (docs/architecture.md): `<dataDir>/.memory/index`. */
export function indexLocationOf (dataDir: string): string {
  return join(dataDir, ...INDEX_DIRECTORY.split('/'))
}

/** A RecordStore over LevelDB at `init.location`; call `open()` before use. */
export function createLevelRecordStore (init: LevelRecordStoreInit): RecordStore {
  return new LevelRecordStore(init)
}
