import type { Level } from 'level'
import { SUBLEVELS } from './key-layout.js'

export type RootLevel = Level<string, string>

/** The sublevels of keys.ts with their value encodings: records' values are bytes (record-location.ts), the rest are text. */
export function sublevelsOf (db: RootLevel) {
  const subs = {
    records: db.sublevel<string, Uint8Array>(SUBLEVELS.records, { valueEncoding: 'view' }),
    files: db.sublevel<string, string>(SUBLEVELS.files, { valueEncoding: 'utf8' }),
    memories: db.sublevel<string, string>(SUBLEVELS.memories, { valueEncoding: 'utf8' }),
    links: db.sublevel<string, string>(SUBLEVELS.links, { valueEncoding: 'utf8' }),
    query: db.sublevel<string, string>(SUBLEVELS.query, { valueEncoding: 'utf8' }),
    stats: db.sublevel<string, string>(SUBLEVELS.stats, { valueEncoding: 'utf8' }),
    orphans: db.sublevel<string, string>(SUBLEVELS.orphans, { valueEncoding: 'utf8' }),
    meta: db.sublevel<string, string>(SUBLEVELS.meta, { valueEncoding: 'utf8' })
  }
  // WriteBatch writes through the root with these prefixes: they must be the sublevels' own.
  for (const name of Object.keys(SUBLEVELS) as SublevelName[]) {
    if (subs[name].prefix !== PREFIXES[name]) throw new Error(`sublevel ${name} has prefix ${subs[name].prefix}, not ${PREFIXES[name]}`)
  }
  return subs
}

export type Sublevels = ReturnType<typeof sublevelsOf>
export type QuerySublevel = Sublevels['query']
export type SublevelName = keyof typeof SUBLEVELS

/** abstract-level's key prefix of each sublevel (`!name!`, its default separator), on disk. */
const PREFIXES = Object.fromEntries(
  Object.entries(SUBLEVELS).map(([name, label]) => [name, `!${label}!`])
) as Record<SublevelName, string>

const BYTES = { valueEncoding: 'view' } as const

/** A sublevel as a batch writes to it: by its name in SUBLEVELS, or any sublevel by its own key prefix. */
export type BatchTarget = SublevelName | { readonly prefix: string }

/**
 * The operations of one atomic write on any of the sublevels, committed as one LevelDB batch.
 * Keys are prefixed here and written through the root database's chained batch, which hands each
 * operation to the native batch as it is added: the same keys and values as an array batch of
 * sublevel operations, at about half the cost on this thread (measured 0.5–0.7 against 1.3 µs per
 * operation), since the array form clones every operation, resolves and prefixes it for its
 * sublevel, and has the native side read each one's fields back as object properties. The record
 * store names its sublevels; the journal's LevelDB (src/node/journal) passes its sublevels themselves.
 */
export class WriteBatch {
  private readonly keys: string[] = []
  /** The value of each operation; null for a delete. */
  private readonly values: Array<string | Uint8Array | null> = []

  get length (): number {
    return this.keys.length
  }

  put (sublevel: BatchTarget, key: string, value: string | Uint8Array): void {
    this.keys.push(prefixOf(sublevel) + key)
    this.values.push(value)
  }

  del (sublevel: BatchTarget, key: string): void {
    this.keys.push(prefixOf(sublevel) + key)
    this.values.push(null)
  }

  async commit (db: RootLevel): Promise<void> {
    if (this.keys.length === 0) return
    const batch = db.batch()
    try {
      for (let i = 0; i < this.keys.length; i++) {
        const key = this.keys[i] as string
        const value = this.values[i] as string | Uint8Array | null
        if (value === null) batch.del(key)
        else if (typeof value === 'string') batch.put(key, value)
        else batch.put<string, Uint8Array>(key, value, BYTES)
      }
    } catch (err) {
      await batch.close()
      throw err
    }
    await batch.write()
  }
}

function prefixOf (sublevel: BatchTarget): string {
  return typeof sublevel === 'string' ? PREFIXES[sublevel] : sublevel.prefix
}
