import { isRecordCid, type MemoryRecord, type RecordStore, type StoredRecord } from '../schema/index.js'
import type { RecordInclusion } from '../merkle/index.js'
import type { MemoryStore, World, WorldId } from './types.js'

export interface RecordMemoryStoreInit {
  store: RecordStore
  /** The newest successor by the same author (the node's lineage rule), or null. */
  successorOf: (memory: StoredRecord<MemoryRecord>) => Promise<string | null>
  /** The proof that the memory is in the node's signed log, for the merkle-inclusion method. */
  inclusionOf?: (id: string) => Promise<RecordInclusion | undefined>
}

/**
 * The FDR MemoryStore (M-5) over the node's record store. Only here is a WorldId known to be a
 * memory CID (docs/fdr-compliance.md); every layer above treats it as opaque (M-11).
 */
export function createRecordMemoryStore (init: RecordMemoryStoreInit): MemoryStore {
  return {
    async get (worldId: WorldId): Promise<World | null> {
      if (!isRecordCid(worldId)) return null
      const { store } = init
      const [memory, attestations, anchors, inclusion] = await Promise.all([
        store.getMemory(worldId), store.attestationsFor(worldId), store.anchorsFor(worldId), init.inclusionOf?.(worldId)
      ])
      if (memory === null) return null
      const successor = await init.successorOf(memory)
      return {
        id: worldId,
        memory: memory.signed,
        attestations,
        anchors,
        ...(inclusion === undefined ? {} : { inclusion }),
        ...(successor === null ? {} : { supersededBy: successor })
      }
    },
    async exists (worldId: WorldId): Promise<boolean> {
      return isRecordCid(worldId) && await init.store.getMemory(worldId) !== null
    }
  }
}
