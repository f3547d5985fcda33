import { QUERY_SCAN_CHUNK, TRUST_SCALE } from '../constants.js'
import { IsnadError } from '../../errors/index.js'
import type { IndexedMemory } from '../indexed-memory.js'
import { encodeCursor, scoreOfUnits } from '../result-order.js'
import { matchesQuery, type NormalizedQuery } from '../query-plan.js'
import type { QueryHit, QueryPage } from '../../schema/index.js'
import { idKey } from './binary-keys.js'
import {
  ALL_SCOPE, authorScope, createdOfPositionKey, idOfPositionKey, positionKeyBoundBelow, positionKeyOf, queryCreatedAt,
  scopeKey, tagScope, textPositionOf, typeScope, unitsOfPositionKey
} from './key-layout.js'
import { decodeMemoryEntry } from './memory-entry.js'
import type { ScopeNames } from './scope-names.js'
import type { Sublevels } from './sublevels.js'

/*
 * A query is one bounded range scan over one scope of the query index (key-layout.ts): it starts at the
 * top of the scope (or just after the cursor) and ends at the first score below minTrust, so with
 * no other predicate a page reads exactly limit + 1 entries. An entry's value is the memory's
 * created_at as written, or '' for its ISO form (key-layout.ts queryValueOf); time bounds are checked on the position, and any other predicate on the
 * memories' entries (read once per chunk), so no record is ever decoded.
 */

/**
 * The scope to scan: the smallest of the query's tag, author and type scopes by the counters kept
 * in `stats`, ties going to tag, then author, then type; `all` when the query names none. A named
 * scope with no memory at all answers the query without a scan.
 */
export async function chooseScope (subs: Sublevels, query: NormalizedQuery): Promise<string | null> {
  const candidates = query.tags.map(tagScope)
  if (query.author !== undefined) candidates.push(authorScope(query.author))
  if (query.type !== undefined) candidates.push(typeScope(query.type))
  if (candidates.length === 0) return ALL_SCOPE
  if (candidates.length === 1) return candidates[0] as string
  const counts = await subs.stats.getMany(candidates)
  let best = 0
  for (let i = 1; i < candidates.length; i++) {
    if (Number(counts[i] ?? '0') < Number(counts[best] ?? '0')) best = i
  }
  return Number(counts[best] ?? '0') === 0 ? null : candidates[best] as string
}

export async function scanQuery (subs: Sublevels, names: ScopeNames, query: NormalizedQuery): Promise<QueryPage> {
  if (query.minUnits > TRUST_SCALE) return { items: [] }
  const scope = await chooseScope(subs, query)
  // A scope with no number holds no memory: nothing was ever indexed under it.
  const scopeNumber = scope === null ? undefined : names.known(scope)
  if (scope === null || scopeNumber === undefined) return { items: [] }
  const prefix = scopeKey(scopeNumber)
  const at = prefix.length
  const lt = prefix + positionKeyBoundBelow(query.minUnits)
  const iterator = query.after === undefined
    ? subs.query.iterator({ gte: prefix, lt })
    : subs.query.iterator({ gt: prefix + positionKeyOf(query.after), lt })
  const filtered = needsEntries(scope, query)
  // One more than a page tells whether a next page exists without a second query.
  const wanted = query.limit + 1
  const found: Array<{ hit: QueryHit, key: string }> = []
  try {
    let chunk = wanted
    while (found.length < wanted) {
      const entries = await iterator.nextv(chunk)
      // The scope and the score are in the key, the time in the position: only the other
      // predicates (a second tag, the author or type of a tag scope) need the memories' entries.
      const inTime = entries.filter(([key]) => inTimeRange(createdOfPositionKey(key, at), query))
      const ids = inTime.map(([key]) => idOfPositionKey(key, at))
      const memories = filtered ? await loadIndexedMemories(subs, names, ids) : []
      for (let i = 0; i < inTime.length && found.length < wanted; i++) {
        const [key, value] = inTime[i] as [string, string]
        if (filtered && !matchesQuery(memories[i] as IndexedMemory, query)) continue
        const createdAt = queryCreatedAt(value, createdOfPositionKey(key, at))
        found.push({ key, hit: { id: ids[i] as string, trust: scoreOfUnits(unitsOfPositionKey(key, at)), created_at: createdAt } })
      }
      // nextv may return fewer entries than asked for (a byte budget); only an empty read is the end.
      if (entries.length === 0) break
      chunk = QUERY_SCAN_CHUNK
    }
  } finally {
    await iterator.close()
  }
  if (found.length <= query.limit) return { items: found.map((f) => f.hit) }
  const page = found.slice(0, query.limit)
  return { items: page.map((f) => f.hit), next: encodeCursor(textPositionOf((page[page.length - 1] as { key: string }).key, at)) }
}

/** Whether a predicate remains that neither the scope nor the position answers. */
function needsEntries (scope: string, query: NormalizedQuery): boolean {
  if (query.type !== undefined && scope !== typeScope(query.type)) return true
  if (query.author !== undefined && scope !== authorScope(query.author)) return true
  return query.tags.some((tag) => scope !== tagScope(tag))
}

function inTimeRange (createdMillis: number, query: NormalizedQuery): boolean {
  if (query.sinceMillis !== undefined && createdMillis < query.sinceMillis) return false
  return query.untilMillis === undefined || createdMillis < query.untilMillis
}

/** The indexed fields of memories listed in the query index (a missing entry is a damaged index). */
async function loadIndexedMemories (subs: Sublevels, names: ScopeNames, ids: string[]): Promise<IndexedMemory[]> {
  if (ids.length === 0) return []
  const values = await subs.memories.getMany(ids.map(idKey))
  return values.map((value, i) => {
    const id = ids[i] as string
    if (value === undefined) throw new IsnadError('DECODE_FAILED', `memory ${id} is in the query index but has no entry: the index must be rebuilt (isnad ledger reindex)`, { details: { id } })
    return decodeMemoryEntry(id, value, (n) => names.nameOf(n)).memory
  })
}
