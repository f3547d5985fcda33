/** What classic-level (the `level` package on Node) adds to abstract-level and `level`'s types omit. */
interface Compactable {
  compactRange: (start: string, end: string) => Promise<void>
}

function isCompactable (db: object): db is Compactable {
  return typeof (db as Partial<Compactable>).compactRange === 'function'
}

/**
 * Writes a LevelDB's memtable to a table: compacting an empty key range (below every sublevel's `!`
 * prefix) flushes the memtable first and then finds no table to merge. After a bulk load this turns
 * the large write buffer into a level-0 table now, instead of leaving it in the log for the next open
 * to replay, so a rebuild pays for its own writes. A database without compactRange (the browser's
 * `level`) has nothing to flush.
 */
export async function flushMemtable (db: object): Promise<void> {
  if (isCompactable(db)) await db.compactRange('\x00', '\x00')
}
