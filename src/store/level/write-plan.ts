import { indexedMemoryOf, type IndexedMemory } from '../indexed-memory.js'
import { scoreUnitsOf } from '../order.js'
import { assertTrustEntry, linksOf, trustNotFound, type PreparedRecord } from '../prepare.js'
import type { TrustEntry } from '../types.js'
import { kindStatKey, linkKey, queryKeysOf, scopesOf, ALL_SCOPE } from './keys.js'
import { decodeMemoryEntry, encodeMemoryEntry, type MemoryEntry } from './memory-entry.js'
import type { Sublevels, WriteOp } from './sublevels.js'

/*
 * Turns a write into the operations of one atomic batch. Planning reads the current state (which
 * ids exist, old scores, counters), so callers run it inside the store's write queue: nothing can
 * change between the reads here and the batch that commits them.
 */

export interface PutPlan {
  ops: WriteOp[]
  newIds: string[]
}

export async function planPutMany (subs: Sublevels, records: PreparedRecord[], trust: ReadonlyMap<string, TrustEntry>): Promise<PutPlan> {
  for (const [memoryId, entry] of trust) assertTrustEntry(memoryId, entry)
  // Two independent reads at once (each a round trip through libuv's pool, which verification
  // shares): which records exist, and the entry (indexed fields and old trust) of every memory with
  // a trust entry — except memories of this batch, which are usually new (a rebuild writes thousands
  // at once), so theirs are read afterwards only for those that turn out to be stored already.
  const batchIds = new Set(records.map((r) => r.id))
  const trustIds = [...trust.keys()]
  const storedIds = trustIds.filter((id) => !batchIds.has(id))
  const [present, stored] = await Promise.all([
    records.length === 0 ? [] : subs.records.hasMany(records.map((r) => r.id)),
    loadEntries(subs, storedIds)
  ])
  const fresh = records.filter((_, i) => present[i] !== true)
  const ops: WriteOp[] = []
  const counts = new Map<string, number>()
  const bump = (key: string): void => { counts.set(key, (counts.get(key) ?? 0) + 1) }
  const freshMemories = new Set<string>()

  for (const { id, signed, bytes } of fresh) {
    const { record } = signed
    ops.push({ type: 'put', sublevel: subs.records, key: id, value: bytes })
    bump(kindStatKey(record.kind))
    for (const { link, from } of linksOf(record)) {
      ops.push({ type: 'put', sublevel: subs.links, key: linkKey(link, from, id), value: '' })
    }
    if (record.kind !== 'memory') continue
    freshMemories.add(id)
    const memory = indexedMemoryOf(record)
    const entry = trust.get(id)
    // A memory with no trust entry is indexed at score 0 until the node scores it.
    pushIndexOps(ops, subs, id, memory, null, entry === undefined ? 0 : scoreUnitsOf(entry.score))
    ops.push({ type: 'put', sublevel: subs.memories, key: id, value: encodeMemoryEntry(memory, entry) })
    for (const scope of scopesOf(memory)) if (scope !== ALL_SCOPE) bump(scope)
  }

  // Entries for memories stored before this batch re-key them; NOT_FOUND for a memory stored nowhere.
  const restated = trustIds.filter((id) => batchIds.has(id) && !freshMemories.has(id))
  const restatedEntries = await loadEntries(subs, restated)
  storedIds.forEach((id, i) => { pushRetrustOps(ops, subs, id, stored[i] as MemoryEntry, trust.get(id) as TrustEntry) })
  restated.forEach((id, i) => { pushRetrustOps(ops, subs, id, restatedEntries[i] as MemoryEntry, trust.get(id) as TrustEntry) })
  ops.push(...await counterOps(subs, counts))
  return { ops, newIds: fresh.map((r) => r.id) }
}

/** The entries of stored memories; NOT_FOUND when one is missing (no trust for the unknown). */
export async function loadEntries (subs: Sublevels, ids: string[]): Promise<MemoryEntry[]> {
  if (ids.length === 0) return []
  const values = await subs.memories.getMany(ids)
  return values.map((value, i) => {
    const id = ids[i] as string
    if (value === undefined) throw trustNotFound(id)
    return decodeMemoryEntry(id, value)
  })
}

/**
 * Re-keys a stored memory's query entries from its old score (0 when never scored) to the new one,
 * and rewrites its entry with the new trust: the score is part of every query key, so an update is
 * delete + put.
 */
export function pushRetrustOps (ops: WriteOp[], subs: Sublevels, id: string, { memory, trust: old }: MemoryEntry, entry: TrustEntry): void {
  const oldUnits = old === undefined ? 0 : scoreUnitsOf(old.score)
  pushIndexOps(ops, subs, id, memory, oldUnits, scoreUnitsOf(entry.score))
  ops.push({ type: 'put', sublevel: subs.memories, key: id, value: encodeMemoryEntry(memory, entry) })
}

/** Query-index puts at `units`, preceded by the deletes at `oldUnits` when the score moved. */
function pushIndexOps (ops: WriteOp[], subs: Sublevels, id: string, memory: IndexedMemory, oldUnits: number | null, units: number): void {
  if (oldUnits === units) return
  if (oldUnits !== null) {
    for (const key of queryKeysOf(memory, oldUnits, id)) ops.push({ type: 'del', sublevel: subs.query, key })
  }
  // The value is what a hit reports as written; everything a scan filters on is in the key or the
  // memory's entry (query-planner.ts).
  for (const key of queryKeysOf(memory, units, id)) ops.push({ type: 'put', sublevel: subs.query, key, value: memory.created_at })
}

async function counterOps (subs: Sublevels, increments: Map<string, number>): Promise<WriteOp[]> {
  if (increments.size === 0) return []
  const keys = [...increments.keys()]
  const current = await subs.stats.getMany(keys)
  return keys.map((key, i) => ({
    type: 'put' as const,
    sublevel: subs.stats,
    key,
    value: String(Number(current[i] ?? '0') + (increments.get(key) ?? 0))
  }))
}
