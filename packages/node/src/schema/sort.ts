/**
 * Sorts `items` in place by `compare`, stably, and returns them: the order `items.sort(compare)`
 * gives. Lists of up to `insertionMax` items are sorted by insertion, which allocates nothing, where
 * V8's Array.prototype.sort allocates work arrays on every call, even for a list already in order.
 * The node sorts thousands of tiny lists a second on its hot paths (a memory's few attestations,
 * a record's members for canonical JSON, a reduction's attachment entries), and those work arrays
 * were a measurable share of its garbage.
 */
export function sortInPlace<T> (items: T[], compare: (a: T, b: T) => number, insertionMax = 16): T[] {
  if (items.length > insertionMax) return items.sort(compare)
  for (let i = 1; i < items.length; i++) {
    const item = items[i] as T
    let j = i - 1
    // Strictly greater only: equal items keep their order (a stable sort).
    while (j >= 0 && compare(items[j] as T, item) > 0) {
      items[j + 1] = items[j] as T
      j--
    }
    items[j + 1] = item
  }
  return items
}
