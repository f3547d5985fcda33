import { COUNTER_CACHE_SIZE, MEMORY_ENTRY_CACHE_SIZE } from '../constants.js'
import { putRecent, useRecent } from '../recency.js'
import type { MemoryEntry } from './memory-entry.js'

/**
 * What the store's own writes let it remember between batches, so that rescoring a memory it wrote
 * recently reads nothing before the write: the memory's entry (indexed fields and trust) and the
 * counters of `stats`. Only the store's write queue fills it, with values read inside the queue or
 * written by a batch that committed, so it holds what LevelDB holds: the store is the only writer
 * of its index (the directory's lock keeps other processes out). A failed write empties it.
 */
export class IndexCache {
  /** Least recently used first. */
  private readonly entries = new Map<string, MemoryEntry>()
  private readonly counters = new Map<string, number>()

  entry (id: string): MemoryEntry | undefined {
    return useRecent(this.entries, id)
  }

  counter (key: string): number | undefined {
    return this.counters.get(key)
  }

  /** After a committed write (or a read inside the write queue). */
  remember (entries: ReadonlyMap<string, MemoryEntry>, counters: ReadonlyMap<string, number>): void {
    for (const [id, entry] of entries) putRecent(this.entries, id, entry)
    for (const id of this.entries.keys()) {
      if (this.entries.size <= MEMORY_ENTRY_CACHE_SIZE) break
      this.entries.delete(id)
    }
    // Counters are few (one per kind, tag, author and type) and each is read on every write that
    // touches its scope; a node with more scopes than the bound starts again from empty.
    if (this.counters.size + counters.size > COUNTER_CACHE_SIZE) this.counters.clear()
    for (const [key, value] of counters) this.counters.set(key, value)
  }

  clear (): void {
    this.entries.clear()
    this.counters.clear()
  }
}
