import type { Level } from 'level'
import { LATIN1 } from './binary-keys.js'
import { SUBLEVELS } from './key-layout.js'

export type RootLevel = Level<string, string>

/** Only its type is read: what `RootLevel.sublevel` returns for keys K and values V. */
declare const root: RootLevel
/** A sublevel of the root database, keys K and values V (abstract-level's AbstractSublevel). */
export type RootSublevel<K, V> = ReturnType<typeof root.sublevel<K, V>>

/**
 * The index's sublevels by name (key-layout.ts SUBLEVELS). Spelled out, not inferred, so the
 * declaration names no path inside node_modules (TS2742 where node_modules is a symlink).
 */
export interface Sublevels {
  records: RootSublevel<string, Uint8Array>
  files: RootSublevel<string, string>
  memories: RootSublevel<string, string>
  links: RootSublevel<string, string>
  query: RootSublevel<string, string>
  stats: RootSublevel<string, string>
  orphans: RootSublevel<string, string>
  scopes: RootSublevel<string, string>
  meta: RootSublevel<string, string>
}

/**
 * The sublevels of key-layout.ts with their encodings: keys are binary strings (binary-keys.ts:
 * LATIN1) except in `files` and `meta`; records' values are bytes (record-location.ts), scopes'
 * binary strings (a tag's UTF-8 bytes), the rest text.
 */
export function sublevelsOf (db: RootLevel): Sublevels {
  const subs: Sublevels = {
    records: db.sublevel<string, Uint8Array>(SUBLEVELS.records, { keyEncoding: LATIN1, valueEncoding: 'view' }),
    files: db.sublevel<string, string>(SUBLEVELS.files, { valueEncoding: 'utf8' }),
    memories: db.sublevel<string, string>(SUBLEVELS.memories, { keyEncoding: LATIN1, valueEncoding: 'utf8' }),
    links: db.sublevel<string, string>(SUBLEVELS.links, { keyEncoding: LATIN1, valueEncoding: 'utf8' }),
    query: db.sublevel<string, string>(SUBLEVELS.query, { keyEncoding: LATIN1, valueEncoding: 'utf8' }),
    stats: db.sublevel<string, string>(SUBLEVELS.stats, { keyEncoding: LATIN1, valueEncoding: 'utf8' }),
    orphans: db.sublevel<string, string>(SUBLEVELS.orphans, { keyEncoding: LATIN1, valueEncoding: 'utf8' }),
    scopes: db.sublevel<string, string>(SUBLEVELS.scopes, { keyEncoding: LATIN1, valueEncoding: LATIN1 }),
    meta: db.sublevel<string, string>(SUBLEVELS.meta, { valueEncoding: 'utf8' })
  }
  // WriteBatch writes through the root with these prefixes: they must be the sublevels' own.
  for (const name of Object.keys(SUBLEVELS) as SublevelName[]) {
    if (subs[name].prefix !== PREFIXES[name]) throw new Error(`sublevel ${name} has prefix ${subs[name].prefix}, not ${PREFIXES[name]}`)
  }
  return subs
}

export type QuerySublevel = Sublevels['query']
export type SublevelName = keyof typeof SUBLEVELS

/** abstract-level's key prefix of each sublevel (`!name!`, its default separator), on disk. */
const PREFIXES = Object.fromEntries(
  Object.entries(SUBLEVELS).map(([name, label]) => [name, `!${label}!`])
) as Record<SublevelName, string>

/** How a batch writes keys (and string values) of each named sublevel: binary strings, or UTF-8 text. */
const BINARY_KEYS: Record<SublevelName, boolean> = { records: true, files: false, memories: true, links: true, query: true, stats: true, orphans: true, scopes: true, meta: false }
const BINARY_VALUES: Record<SublevelName, boolean> = { records: false, files: false, memories: false, links: false, query: false, stats: false, orphans: false, scopes: true, meta: false }

/**
 * A sublevel as a batch writes to it: by its name in SUBLEVELS, or any sublevel by its own key
 * prefix (`binary`: its keys and string values are binary strings, written with LATIN1).
 */
export type BatchTarget = SublevelName | { readonly prefix: string, readonly binary?: boolean }

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
  /** Per operation: bit 1, the key is a binary string; bit 2, a string value is. */
  private readonly modes: number[] = []

  get length (): number {
    return this.keys.length
  }

  put (sublevel: BatchTarget, key: string, value: string | Uint8Array): void {
    this.keys.push(prefixOf(sublevel) + key)
    this.values.push(value)
    this.modes.push(modeOf(sublevel))
  }

  del (sublevel: BatchTarget, key: string): void {
    this.keys.push(prefixOf(sublevel) + key)
    this.values.push(null)
    this.modes.push(modeOf(sublevel))
  }

  async commit (db: RootLevel): Promise<void> {
    if (this.keys.length === 0) return
    const batch = db.batch()
    try {
      for (let i = 0; i < this.keys.length; i++) {
        const key = this.keys[i] as string
        const value = this.values[i] as string | Uint8Array | null
        const mode = this.modes[i] as number
        const options = OPTIONS[typeof value === 'string' ? mode : (mode & KEY_BINARY) | VALUE_BYTES] as typeof OPTIONS[0]
        // The encodings are chosen per operation (OPTIONS), which abstract-level's types cannot follow.
        if (value === null) batch.del(key, options as never)
        else batch.put(key, value as string, options as never)
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

const KEY_BINARY = 1
const VALUE_BINARY = 2
const VALUE_BYTES = 4

function modeOf (sublevel: BatchTarget): number {
  if (typeof sublevel !== 'string') return sublevel.binary === true ? KEY_BINARY | VALUE_BINARY : 0
  return (BINARY_KEYS[sublevel] ? KEY_BINARY : 0) | (BINARY_VALUES[sublevel] ? VALUE_BINARY : 0)
}

/** The encodings of an operation by its mode (a Uint8Array value is always written as a view). */
const OPTIONS = Array.from({ length: 8 }, (_, mode) => ({
  keyEncoding: (mode & KEY_BINARY) !== 0 ? LATIN1 : 'utf8',
  valueEncoding: (mode & VALUE_BYTES) !== 0 ? 'view' : (mode & VALUE_BINARY) !== 0 ? LATIN1 : 'utf8'
}))
