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

/*
 * Fields are joined with NUL: record-v1 R3 forbids control characters in tags and the other fields
 * are an enum, a did:key and a timestamp, so NUL never occurs inside a field. Tags come last, so the
 * list needs no count.
 */
const SEP = '\x00'

export function indexedMemoryOf (record: MemoryRecord): IndexedMemory {
  return {
    type: record.content.type,
    author: record.author.agent_id,
    created_at: record.created_at,
    createdMillis: Date.parse(record.created_at),
    tags: [...record.content.tags]
  }
}

export function encodeIndexedMemory (memory: IndexedMemory): string {
  return [memory.type, memory.author, memory.created_at, ...memory.tags].join(SEP)
}

export function decodeIndexedMemory (value: string): IndexedMemory {
  const [type, author, created, ...tags] = value.split(SEP)
  const createdAt = created ?? ''
  return {
    type: type as ContentType,
    author: author ?? '',
    created_at: createdAt,
    createdMillis: Date.parse(createdAt),
    tags
  }
}
