/*
 * A Map as a least-recently-used list: its insertion order is the order of use, oldest first, so a
 * bounded cache drops entries from the front. The store's IndexCache and the node's EvidenceCache
 * both keep their entries this way.
 */

/** The value of `key`, now the most recently used; undefined when absent. */
export function useRecent<K, V> (map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key)
  if (value !== undefined) putRecent(map, key, value)
  return value
}

/** Sets `key` as the most recently used entry. */
export function putRecent<K, V> (map: Map<K, V>, key: K, value: V): void {
  map.delete(key)
  map.set(key, value)
}
