import type { RepairAction } from '../../ledger/audit/index.js'
import { objectIdOf } from '../../ledger/object-views/index.js'
import { VIEW_OBJECT_TYPES } from '../../schema/index.js'
import type { RecordStore } from '../../record-index/index.js'
import { LocalNode } from '../local-node.js'

/**
 * `isnad ledger repair` for the views (docs/views.md, "Reductions"; docs/threat-model.md): the
 * memories whose view lines were lost, or whose newest lines no reducer line names, are reduced
 * again from the store, last, after the reindex. The writer appends each line whose newest one in
 * its shard differs (a lost line comes back byte for byte when the memory's inputs have not changed)
 * and records every state not recorded yet, so `ledger verify` finds each object's state again.
 */

type ViewAction = Extract<RepairAction, { kind: 'reduce_views' }>

/** @default 1000 — memories listed per page when object ids are traced back to their memories. */
const QUERY_PAGE = 1000

/** `shardCount`: the count the node's operator set, which the views' trust is scored with (OpenLocalNodeOptions). */
export async function reduceViewsAgain (home: string, action: ViewAction, shardCount?: number): Promise<string> {
  const node = await LocalNode.open({ home, shardCount })
  try {
    const memories = new Set<string>()
    const absent: string[] = []
    for (const id of action.memories) {
      if (await node.store.getMemory(id) === null) absent.push(id)
      else memories.add(id)
    }
    const traced = await memoriesOfObjects(node.store, action.objects)
    for (const id of traced.found) memories.add(id)
    await node.journal.views.reduceAgain(memories)
    const unknown = [...absent, ...traced.missing]
    return `reduced ${memories.size} memor${memories.size === 1 ? 'y' : 'ies'} again` +
      `${action.settle.length === 0 ? '' : `; ${action.settle.length} lost state${action.settle.length === 1 ? '' : 's'} (${action.settle.join(', ')}) stand for their objects' states now`}` +
      `${unknown.length === 0 ? '' : `; not in the store, their views stay as they are: ${unknown.join(', ')}`}`
  } finally {
    await node.close()
  }
}

/**
 * The memories of objects whose lines named none (the only lines were lost): an object id derives
 * from its type and its memory's CID (docs/views.md), so every stored memory is tried under each type.
 */
async function memoriesOfObjects (store: RecordStore, objects: readonly string[]): Promise<{ found: string[], missing: string[] }> {
  const wanted = new Set(objects)
  const found: string[] = []
  let cursor: string | undefined
  while (wanted.size > 0) {
    const page = await store.query({ limit: QUERY_PAGE, ...(cursor === undefined ? {} : { cursor }) })
    for (const { id } of page.items) {
      for (const type of VIEW_OBJECT_TYPES) {
        if (wanted.delete(objectIdOf(type, id))) found.push(id)
      }
    }
    if (page.next === undefined) break
    cursor = page.next
  }
  return { found, missing: [...wanted] }
}
