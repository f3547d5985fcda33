import type { AnchorRecord } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../record-index/index.js'
import type { JournalState } from '../journal/journal-state.js'

/**
 * Every stored anchor, in journal order, for `isnad anchor check` over all memories
 * (LocalNode.checkAnchors): the journal's record ids are read a page of 1,024 at a time.
 */
export async function storedAnchors (state: JournalState, store: RecordStore): Promise<Array<StoredRecord<AnchorRecord>>> {
  const anchors: Array<StoredRecord<AnchorRecord>> = []
  for (let cursor = 0; ;) {
    const { ids, next } = await state.recordsSince(cursor, 1024)
    for (const id of ids) {
      const stored = await store.get(id)
      if (stored?.signed.record.kind === 'anchor') anchors.push({ id, signed: { record: stored.signed.record, signature: stored.signed.signature } })
    }
    if (ids.length === 0 || next === cursor) break
    cursor = next
  }
  return anchors
}
