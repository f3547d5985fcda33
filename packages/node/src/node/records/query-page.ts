import type { ContentType, MemoryRecord } from '../../schema/index.js'
import type { MemoryQuery, RecordStore, StoredRecord } from '../../record-index/index.js'
import { TRUST_LEVELS, type TrustLevel } from '../../trust/index.js'
import type { NodeAnchors } from '../anchors/anchors.js'

/*
 * `query`: a page of the store's query, each memory with its trust as it is now (anchors re-checked
 * at read time, anchors-v1 §5).
 */

export interface QueryResultItem {
  id: string
  trust: number
  level: TrustLevel
  type: ContentType
  summary: string
  tags: string[]
  author: string
  created_at: string
}

/** What a query page reads: the store, the anchors' current states, and the memories themselves. */
export interface QueryReader {
  store: RecordStore
  anchors: NodeAnchors
  requireMemory: (id: string) => Promise<StoredRecord<MemoryRecord>>
}

export async function queryPage (node: QueryReader, query: MemoryQuery): Promise<{ items: QueryResultItem[], next?: string }> {
  const page = await node.store.query(query)
  const items: QueryResultItem[] = []
  for (const hit of page.items) {
    const memory = await node.requireMemory(hit.id)
    const indexed = await node.store.getTrust(hit.id)
    // Anchors are re-checked at read time (anchors-v1 §5): a memory with anchors scores as they are now.
    const trust = await node.anchors.refreshTrust(memory, indexed) ?? indexed
    const { content, author, created_at: createdAt } = memory.signed.record
    items.push({
      id: hit.id,
      trust: trust?.score ?? hit.trust,
      level: isTrustLevel(trust?.level) ? trust.level : 'Unverified',
      type: content.type,
      summary: content.summary,
      tags: content.tags,
      author: author.agent_id,
      created_at: createdAt
    })
  }
  return page.next === undefined ? { items } : { items, next: page.next }
}

function isTrustLevel (level: string | undefined): level is TrustLevel {
  return (TRUST_LEVELS as readonly string[]).includes(level ?? '')
}
