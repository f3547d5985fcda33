import type { LedgerEvent } from '../schema/index.js'
import { readEntries, validateEventLine, type LedgerEntry } from './entries.js'
import type { ShardRef } from './event-shards.js'

/**
 * All event shards of a scope as one sequence in Lamport order (spec §5): each shard is in lc order
 * (one writer, lc strictly increasing), so a k-way merge of the shards is. Shards are opened lazily,
 * in order of their first lc, so a long history of daily shards keeps only the overlapping few open.
 * Ties (events of different instances with equal lc) are broken by instance id, then event id.
 */

export type EventEntry = LedgerEntry<LedgerEvent>

export interface MergeOptions {
  /** Only events with `lc >= from`; non-event entries (corrupt, torn) are always reported. */
  from?: number
  /** Per-file byte limits: a file still being appended is read up to its durable size. */
  limits?: ReadonlyMap<string, number>
}

interface Cursor {
  iterator: AsyncGenerator<EventEntry>
  head: EventEntry
  /** The last lc read from this shard: lines must go strictly up (spec §5, one writer per shard). */
  lastLc: number
}

/** A record whose lc does not exceed its predecessor's in the same shard becomes an `order` entry. */
function checkOrder (cursor: Cursor, entry: EventEntry): EventEntry {
  if (entry.kind !== 'record') return entry
  if (entry.value.lc > cursor.lastLc) {
    cursor.lastLc = entry.value.lc
    return entry
  }
  const { file, offset, line } = entry
  return { file, offset, line, kind: 'corrupt', reason: 'order', message: `lc ${entry.value.lc} after lc ${cursor.lastLc} in the same shard (event ${entry.value.event_id})`, length: 0 }
}

function open (shard: ShardRef, limits: ReadonlyMap<string, number> | undefined): AsyncGenerator<EventEntry> {
  const limit = limits?.get(shard.path)
  return readEntries(shard.path, validateEventLine, limit === undefined ? {} : { limit })
}

/** Non-event entries sort first, so a problem is reported as soon as its shard is reached. */
function before (a: EventEntry, b: EventEntry): boolean {
  if (a.kind !== 'record') return true
  if (b.kind !== 'record') return false
  const x = a.value
  const y = b.value
  if (x.lc !== y.lc) return x.lc < y.lc
  if (x.instance_id !== y.instance_id) return x.instance_id < y.instance_id
  return x.event_id < y.event_id
}

function firstLc (head: EventEntry | undefined): number {
  return head?.kind === 'record' ? head.value.lc : Number.NEGATIVE_INFINITY
}

export async function * mergeShards (shards: readonly ShardRef[], options: MergeOptions = {}): AsyncGenerator<EventEntry> {
  // Peek at each shard's first entry, then close it again: only the order of first lcs is kept.
  const pending: Array<{ shard: ShardRef, first: number }> = []
  for (const shard of shards) {
    const iterator = open(shard, options.limits)
    const first = await iterator.next()
    await iterator.return(undefined)
    if (first.done !== true) pending.push({ shard, first: firstLc(first.value) })
  }
  pending.sort((a, b) => a.first === b.first ? 0 : a.first < b.first ? -1 : 1) // (−∞ − −∞ is NaN)
  const active: Cursor[] = []
  try {
    for (;;) {
      let min = minCursor(active)
      while (pending.length > 0 && (min === undefined || (pending[0]?.first ?? 0) <= firstLc(min.head))) {
        const next = pending.shift() as { shard: ShardRef }
        const iterator = open(next.shard, options.limits)
        const head = await iterator.next()
        if (head.done === true) continue
        const cursor: Cursor = { iterator, head: head.value, lastLc: 0 }
        cursor.head = checkOrder(cursor, head.value)
        active.push(cursor)
        min = minCursor(active)
      }
      if (min === undefined) return
      const entry = min.head
      const advanced = await min.iterator.next()
      if (advanced.done === true) active.splice(active.indexOf(min), 1)
      else min.head = checkOrder(min, advanced.value)
      if (entry.kind !== 'record' || options.from === undefined || entry.value.lc >= options.from) yield entry
    }
  } finally {
    await Promise.all(active.map(async (c) => await c.iterator.return(undefined)))
  }
}

function minCursor (active: readonly Cursor[]): Cursor | undefined {
  let min: Cursor | undefined
  for (const cursor of active) if (min === undefined || before(cursor.head, min.head)) min = cursor
  return min
}
