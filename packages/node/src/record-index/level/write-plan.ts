import { indexedMemoryOf, type IndexedMemory } from '../indexed-memory.js'
import { scoreUnitsOf } from '../result-order.js'
import { assertTrustEntry, linksOf, sameTrust, trustNotFound, type PreparedRecord } from '../prepare.js'
import type { TrustEntry } from '../../schema/index.js'
import type { IndexCache } from './index-cache.js'
import { idKey, lookupKey } from './binary-keys.js'
import { kindStatKey, linkKey, positionKey, queryKey, queryValueOf, scopesOf, ALL_SCOPE } from './key-layout.js'
import { decodeMemoryEntry, encodeMemoryEntry, type MemoryEntry } from './memory-entry.js'
import type { ScopeNames } from './scope-names.js'
import { WriteBatch, type Sublevels } from './sublevels.js'

/*
 * Turns a write into the operations of one atomic batch. Planning reads the current state (which
 * ids exist, old scores, counters), so callers run it inside the store's write queue: nothing can
 * change between the reads here and the batch that commits them. What the store wrote recently is
 * read from its IndexCache instead of LevelDB; the plan lists what the cache learns once the batch
 * has committed (`entries`, `counters`).
 */

export interface WritePlan {
  batch: WriteBatch
  /** The store's scope numbers: a batch gives new scopes theirs (pending until it commits). */
  names: ScopeNames
  /** The entry of every memory the batch writes, for the cache once the batch has committed. */
  entries: Map<string, MemoryEntry>
  /** The counters the batch writes, with their new values, for the cache likewise. */
  counters: Map<string, number>
}

export interface PutPlan extends WritePlan {
  newIds: string[]
  /** Memories the batch marks as having orphan evidence (key-layout.ts `orphans`), and those it unmarks (stored now). */
  orphansAdded: string[]
  orphansCleared: string[]
}

/**
 * `orphans` is the store's set of memories marked in the `orphans` sublevel: a batch marks the
 * memory of each new attestation or anchor that is stored nowhere (not in the batch, not in the
 * store), and unmarks each memory it stores.
 */
/** What a batch writes in `records` for each new record (record-values.ts). */
export interface ValuesPlan {
  /** Called first, with the batch: the ledger files the batch's locations name get their entries. */
  name: (batch: WriteBatch) => void
  /** A new record's value: its location in the ledger, else its bytes (record-location.ts). */
  valueOf: (record: PreparedRecord, batch: WriteBatch) => Uint8Array
}

export async function planPutMany (subs: Sublevels, cache: IndexCache, names: ScopeNames, records: PreparedRecord[], trust: ReadonlyMap<string, TrustEntry>, orphans: ReadonlySet<string>, values: ValuesPlan): Promise<PutPlan> {
  for (const [memoryId, entry] of trust) assertTrustEntry(memoryId, entry)
  // Two independent reads at once (each a round trip through libuv's pool): which records exist,
  // and the entry (indexed fields and old trust) of every memory with a trust entry, which the
  // cache usually has — except memories of this batch, which are usually new (a rebuild writes
  // thousands at once), so theirs are read afterwards only for those that turn out to be stored.
  const batchIds = new Set(records.map((r) => r.id))
  const trustIds = [...trust.keys()]
  const storedIds = trustIds.filter((id) => !batchIds.has(id))
  const targets = unknownEvidenceTargets(records, trust, orphans)
  const [present, stored, targetsStored] = await Promise.all([
    records.length === 0 ? [] : subs.records.hasMany(records.map((r) => idKey(r.id))),
    loadEntries(subs, cache, names, storedIds),
    targets.length === 0 ? [] : subs.records.hasMany(targets.map(idKey))
  ])
  const fresh = records.filter((_, i) => present[i] !== true)
  const plan: PutPlan = { batch: new WriteBatch(), names, entries: new Map(), counters: new Map(), newIds: fresh.map((r) => r.id), orphansAdded: [], orphansCleared: [] }
  values.name(plan.batch)
  const absent = new Set(targets.filter((_, i) => targetsStored[i] !== true))
  const increments = new Map<string, number>()
  const bump = (key: string): void => { increments.set(key, (increments.get(key) ?? 0) + 1) }
  const freshMemories = new Set<string>()

  for (const prepared of fresh) {
    const { id, signed: { record } } = prepared
    plan.batch.put('records', idKey(id), values.valueOf(prepared, plan.batch))
    bump(kindStatKey(record.kind))
    for (const { link, from } of linksOf(record)) plan.batch.put('links', linkKey(link, from, id), '')
    if ((record.kind === 'attestation' || record.kind === 'anchor') && absent.delete(record.memory)) {
      plan.batch.put('orphans', idKey(record.memory), '')
      plan.orphansAdded.push(record.memory)
    }
    if (record.kind !== 'memory') continue
    freshMemories.add(id)
    if (orphans.has(id)) {
      plan.batch.del('orphans', idKey(id))
      plan.orphansCleared.push(id)
    }
    const memory = indexedMemoryOf(record)
    const scopes = scopesOf(memory)
    // A memory with no trust entry is indexed at score 0 until the node scores it.
    pushEntryOps(plan, id, { memory, trust: trust.get(id) }, null, scopes)
    for (const scope of scopes) if (scope !== ALL_SCOPE) bump(scope)
  }

  // Entries for memories stored before this batch re-key them; NOT_FOUND for a memory stored nowhere.
  const restated = trustIds.filter((id) => batchIds.has(id) && !freshMemories.has(id))
  const restatedEntries = await loadEntries(subs, cache, names, restated)
  // An entry that says nothing new (sameTrust: only computed_at moved) is not rewritten.
  const retrust = (id: string, stored: MemoryEntry): void => {
    const entry = trust.get(id) as TrustEntry
    if (!sameTrust(stored.trust, entry)) pushRetrustOps(plan, id, stored, entry)
  }
  storedIds.forEach((id, i) => { retrust(id, stored[i] as MemoryEntry) })
  restated.forEach((id, i) => { retrust(id, restatedEntries[i] as MemoryEntry) })
  await pushCounterOps(plan, subs, cache, increments)
  return plan
}

/**
 * Memories that the batch's attestations and anchors point at and that may be stored nowhere: not
 * a memory of the batch, not scored with it (a trust entry names a stored memory or one of the
 * batch), not marked already. The store is asked which of them it holds.
 */
function unknownEvidenceTargets (records: readonly PreparedRecord[], trust: ReadonlyMap<string, TrustEntry>, orphans: ReadonlySet<string>): string[] {
  const targets = new Set<string>()
  for (const { signed: { record } } of records) {
    if ((record.kind === 'attestation' || record.kind === 'anchor') && !trust.has(record.memory) && !orphans.has(record.memory)) targets.add(record.memory)
  }
  for (const { id } of records) targets.delete(id)
  return [...targets]
}

/**
 * The entries of stored memories, from the cache or else LevelDB; NOT_FOUND when one is missing
 * (no trust for the unknown). Runs inside the write queue.
 */
export async function loadEntries (subs: Sublevels, cache: IndexCache, names: ScopeNames, ids: string[]): Promise<MemoryEntry[]> {
  const entries = ids.map((id) => cache.entry(id))
  const missing = ids.filter((_, i) => entries[i] === undefined)
  if (missing.length === 0) return entries as MemoryEntry[]
  const values = await subs.memories.getMany(missing.map(lookupKey))
  let next = 0
  return entries.map((cached, i) => {
    if (cached !== undefined) return cached
    const id = ids[i] as string
    const value = values[next++]
    if (value === undefined) throw trustNotFound(id)
    return decodeMemoryEntry(id, value, (n) => names.nameOf(n))
  })
}

/**
 * Re-keys a stored memory's query entries from its old score (0 when never scored) to the new one,
 * and rewrites its entry with the new trust: the score is part of every query key, so an update is
 * delete + put.
 */
export function pushRetrustOps (plan: WritePlan, id: string, { memory, trust: old }: MemoryEntry, entry: TrustEntry): void {
  pushEntryOps(plan, id, { memory, trust: entry }, old === undefined ? 0 : scoreUnitsOf(old.score))
}

/**
 * A memory's entry and its query-index keys at the entry's score, after deleting those at
 * `oldUnits` (null for a memory new to the index); the keys stay when the score did not move.
 */
function pushEntryOps (plan: WritePlan, id: string, entry: MemoryEntry, oldUnits: number | null, scopes?: readonly string[]): void {
  const { memory, trust } = entry
  const numberOf = (scope: string): number => plan.names.assign(scope, plan.batch)
  pushIndexOps(plan.batch, id, memory, oldUnits, trust === undefined ? 0 : scoreUnitsOf(trust.score), numberOf, scopes)
  plan.batch.put('memories', idKey(id), encodeMemoryEntry(memory, trust, numberOf))
  plan.entries.set(id, entry)
}

/**
 * Query-index puts at `units`, preceded by the deletes at `oldUnits` when the score moved: the keys
 * of queryKeysOf, built here one by one from the memory's scopes (scopesOf, once for both).
 */
function pushIndexOps (batch: WriteBatch, id: string, memory: IndexedMemory, oldUnits: number | null, units: number, numberOf: (scope: string) => number, scopes?: readonly string[]): void {
  if (oldUnits === units) return
  const keyed = (scopes ?? scopesOf(memory)).map(numberOf)
  const key = idKey(id)
  if (oldUnits !== null) {
    const old = positionKey(oldUnits, memory.createdMillis, key)
    for (const scope of keyed) batch.del('query', queryKey(scope, old))
  }
  // The value is what a hit reports as written (queryValueOf: empty when the position's time says
  // it); everything a scan filters on is in the key or the memory's entry (query-planner.ts).
  const position = positionKey(units, memory.createdMillis, key)
  const value = queryValueOf(memory)
  for (const scope of keyed) batch.put('query', queryKey(scope, position), value)
}

/** Counters plus their increments; the current values come from the cache, else one read. */
async function pushCounterOps (plan: WritePlan, subs: Sublevels, cache: IndexCache, increments: Map<string, number>): Promise<void> {
  if (increments.size === 0) return
  const keys = [...increments.keys()]
  const cached = keys.map((key) => cache.counter(key))
  const missing = keys.filter((_, i) => cached[i] === undefined)
  const read = missing.length === 0 ? [] : await subs.stats.getMany(missing)
  let next = 0
  keys.forEach((key, i) => {
    const current = cached[i] ?? Number(read[next++] ?? '0')
    const value = current + (increments.get(key) ?? 0)
    plan.batch.put('stats', key, String(value))
    plan.counters.set(key, value)
  })
}
