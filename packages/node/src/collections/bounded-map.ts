/**
 * A Map that forgets its oldest entry past `capacity` (insertion order; `set` of an existing key
 * refreshes it). What a node remembers about peers, messages and agents is always bounded: the
 * record gate's cache, gossip's seen checkpoints, the evidence ledger's agents.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()
  /**
   * Where eviction goes on: the keys in insertion order, from the oldest still present. Kept across
   * calls because a fresh `keys()` starts at the table's first slot and steps over every entry
   * deleted since V8 last rehashed it — thousands of slots per call in a full map that turns over
   * (the record gate's cache: ~5 µs per set, against ~0.4 µs this way). A Map iterator stays valid
   * across deletions, insertions and rehashing, and visits entries inserted after it was made; once
   * it is exhausted a new one is made.
   */
  private oldest: Iterator<K> | undefined

  constructor (private readonly capacity: number) {}

  get size (): number {
    return this.entries.size
  }

  get (key: K): V | undefined {
    return this.entries.get(key)
  }

  has (key: K): boolean {
    return this.entries.has(key)
  }

  set (key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.evictOldest()
  }

  /**
   * Every key before the iterator's position was returned by it and deleted here, so the next key it
   * returns is the oldest present (a refreshed key was re-inserted at the end, where it comes again).
   */
  private evictOldest (): void {
    let next = this.oldest?.next()
    if (next === undefined || next.done === true) {
      this.oldest = this.entries.keys()
      next = this.oldest.next()
    }
    if (next.done !== true) this.entries.delete(next.value)
  }

  delete (key: K): boolean {
    return this.entries.delete(key)
  }

  /** The keys, oldest first. */
  keys (): MapIterator<K> {
    return this.entries.keys()
  }

  /** The entries, oldest first. */
  [Symbol.iterator] (): MapIterator<[K, V]> {
    return this.entries[Symbol.iterator]()
  }
}
