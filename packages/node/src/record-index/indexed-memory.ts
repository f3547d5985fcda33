import type { ContentType, MemoryRecord } from '../schema/index.js'

/**
 * What a query needs to know about a memory without decoding its record: the value of every query
 * index entry, so a scan filters type, author, time and further tags from the entry it is already
 * reading, with no extra lookup.
 */
export interface IndexedMemory {
  type: ContentType
  author: string
  created_at: string
  createdMillis: number
  tags: string[]
}

export function indexedMemoryOf (record: MemoryRecord): IndexedMemory {
  return {
    type: record.content.type,
    author: record.author.agent_id,
    created_at: record.created_at,
    createdMillis: Date.parse(record.created_at),
    tags: [...record.content.tags]
  }
}
