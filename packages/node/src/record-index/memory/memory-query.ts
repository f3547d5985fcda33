import { TRUST_SCALE } from '../constants.js'
import type { IndexedMemory } from '../indexed-memory.js'
import { encodeCursor, positionOf, scoreOfUnits, scoreUnitsOf } from '../result-order.js'
import { matchesQuery, type NormalizedQuery } from '../query-plan.js'
import type { QueryPage, TrustEntry } from '../../schema/index.js'

export interface MemoryIndexes {
  memories: Map<string, IndexedMemory>
  trust: Map<string, TrustEntry>
  byTag: Map<string, Set<string>>
  byAuthor: Map<string, Set<string>>
  byType: Map<string, Set<string>>
}

/**
 * Starts from the smallest set the query names (any tag, the author, the type), filters, then sorts
 * by the same position strings as the LevelDB keys (order.ts), so both stores page identically.
 */
export function queryMemories (indexes: MemoryIndexes, query: NormalizedQuery): QueryPage {
  if (query.minUnits > TRUST_SCALE) return { items: [] }
  const named: Array<Set<string> | undefined> = query.tags.map((tag) => indexes.byTag.get(tag))
  if (query.author !== undefined) named.push(indexes.byAuthor.get(query.author))
  if (query.type !== undefined) named.push(indexes.byType.get(query.type))
  if (named.includes(undefined)) return { items: [] }
  const sets = named as Array<Set<string>>
  const candidates: Iterable<string> = sets.length === 0
    ? indexes.memories.keys()
    : sets.reduce((a, b) => (b.size < a.size ? b : a))

  const found: Array<{ position: string, id: string, units: number, memory: IndexedMemory }> = []
  for (const id of candidates) {
    const memory = indexes.memories.get(id)
    if (memory === undefined || !matchesQuery(memory, query)) continue
    const entry = indexes.trust.get(id)
    const units = entry === undefined ? 0 : scoreUnitsOf(entry.score)
    if (units < query.minUnits) continue
    const position = positionOf(units, memory.createdMillis, id)
    if (query.after !== undefined && position <= query.after) continue
    found.push({ position, id, units, memory })
  }
  found.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
  const page = found.slice(0, query.limit)
  const items = page.map((f) => ({ id: f.id, trust: scoreOfUnits(f.units), created_at: f.memory.created_at }))
  const last = page[page.length - 1]
  return found.length > query.limit && last !== undefined ? { items, next: encodeCursor(last.position) } : { items }
}
