/**
 * A Map that forgets its oldest entry past `capacity` (insertion order; `set` of an existing key
 * refreshes it). What the network remembers about peers and messages is always bounded.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()

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
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
  }

  delete (key: K): boolean {
    return this.entries.delete(key)
  }
}
