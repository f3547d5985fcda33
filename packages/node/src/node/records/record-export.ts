import type { MemoryRecord, SignedRecord } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../record-index/index.js'

/**
 * The signed records of the given memories and all their evidence (attestations, anchors, witness
 * requests), each once, for `export` (LocalNode.exportRecords). `requireMemory` refuses an unknown id.
 */
export async function exportRecords (
  store: RecordStore, ids: readonly string[], requireMemory: (id: string) => Promise<StoredRecord<MemoryRecord>>
): Promise<SignedRecord[]> {
  const out = new Map<string, SignedRecord>()
  for (const id of ids) {
    const memory = await requireMemory(id)
    out.set(memory.id, memory.signed)
    for (const r of [...await store.attestationsFor(id), ...await store.anchorsFor(id), ...await store.witnessRequestsFor(id)]) {
      out.set(r.id, r.signed)
    }
  }
  return [...out.values()]
}
