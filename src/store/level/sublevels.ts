import type { Level } from 'level'
import { SUBLEVELS } from './keys.js'

export type RootLevel = Level<string, string>

/** The sublevels of keys.ts with their value encodings: records stay bytes, the rest are text. */
export function sublevelsOf (db: RootLevel) {
  return {
    records: db.sublevel<string, Uint8Array>(SUBLEVELS.records, { valueEncoding: 'view' }),
    memories: db.sublevel<string, string>(SUBLEVELS.memories, { valueEncoding: 'utf8' }),
    links: db.sublevel<string, string>(SUBLEVELS.links, { valueEncoding: 'utf8' }),
    query: db.sublevel<string, string>(SUBLEVELS.query, { valueEncoding: 'utf8' }),
    stats: db.sublevel<string, string>(SUBLEVELS.stats, { valueEncoding: 'utf8' }),
    meta: db.sublevel<string, string>(SUBLEVELS.meta, { valueEncoding: 'utf8' })
  }
}

export type Sublevels = ReturnType<typeof sublevelsOf>
export type QuerySublevel = Sublevels['query']

/** One operation of the single atomic batch a write becomes, on any of the sublevels. */
export type WriteOp =
  | { type: 'put', sublevel: Sublevels[keyof Sublevels], key: string, value: string | Uint8Array }
  | { type: 'del', sublevel: Sublevels[keyof Sublevels], key: string }

export async function commit (db: RootLevel, ops: WriteOp[]): Promise<void> {
  if (ops.length === 0) return
  await db.batch<string, string | Uint8Array>(ops, {})
}
