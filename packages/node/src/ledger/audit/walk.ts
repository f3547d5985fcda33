import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { errnoOf, ioError } from '../../fs/index.js'
import { QUARANTINE_DIR, RESTORED_SUFFIX, VIEW_FOLDERS } from './constants.js'

/**
 * Every file of the ledger directories (spec §3, §4, §10), classified by its path: event shards
 * (live and archived), view shards, operational ledgers, quarantined shards, and files that have
 * no business there. Only paths: reading is the auditors' job.
 */

export type ViewFolder = (typeof VIEW_FOLDERS)[number]

export interface ViewShardFile {
  /** Relative to the data directory, `/`-separated. */
  rel: string
  folder: ViewFolder
  scope: string
  /** `YYYY-MM` (spec §4 monthly shards). */
  month: string
}

/** A file under archive/quarantine/, with what its original path says about it. */
export interface QuarantinedFile {
  rel: string
  /** The path it had before repair moved it. */
  original: string
  scope: string | undefined
  /** For stream shards. */
  instance: string | undefined
  /** `YYYY-MM-DD` for event shards. */
  day: string | undefined
}

export interface LedgerTree {
  /** Scopes that have event shards, sorted. */
  scopes: string[]
  views: ViewShardFile[]
  /** coordination/ and governance/ `.jsonl` files, relative. */
  operational: string[]
  quarantined: QuarantinedFile[]
  /** Files in streams/, bus/, archive/ or views/ that are no shard: leftovers, strays. */
  unknown: string[]
}

const SCOPE = '[a-z0-9][a-z0-9._-]{0,63}'
const DAY = '\\d{4}-\\d{2}-\\d{2}'
const STREAM = new RegExp(`^(?:archive/)?streams/(${SCOPE})/(ins_[a-z2-7]{26})/(${DAY})\\.jsonl$`)
const BUS = new RegExp(`^(?:archive/)?bus/(${SCOPE})/(${DAY})\\.jsonl$`)
const VIEW = new RegExp(`^views/(${VIEW_FOLDERS.join('|')})/(${SCOPE})/(\\d{4}-\\d{2})\\.jsonl$`)
/** Repair appends `.N` when the same path was quarantined before. */
const QUARANTINE_SUFFIX = /\.\d+$/

/** Relative paths of every file below `dir` (none when it does not exist). */
async function filesBelow (dataDir: string, dir: string): Promise<string[]> {
  try {
    const entries = await readdir(join(dataDir, dir), { recursive: true, withFileTypes: true })
    return entries.filter((e) => e.isFile())
      .map((e) => relative(dataDir, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort()
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return []
    throw ioError('list', join(dataDir, dir), err)
  }
}

/** What an event shard path says: its scope, instance (stream shards) and day. */
export function parseShardPath (rel: string): { scope: string, instance: string | undefined, day: string } | undefined {
  const path = rel.endsWith('.gz') ? rel.slice(0, -3) : rel
  const archived = rel.endsWith('.gz')
  if (archived !== path.startsWith('archive/')) return undefined // live shards are .jsonl, archives .jsonl.gz
  const stream = STREAM.exec(path)
  if (stream !== null) return { scope: stream[1] as string, instance: stream[2] as string, day: stream[3] as string }
  const bus = BUS.exec(path)
  if (bus !== null) return { scope: bus[1] as string, instance: undefined, day: bus[2] as string }
  return undefined
}

/** True for an event shard (live or archived) or a view shard: what repair may quarantine. */
export function isShardPath (rel: string): boolean {
  return parseShardPath(rel) !== undefined || VIEW.test(rel)
}

function quarantined (rel: string): QuarantinedFile {
  // Lines set aside from a shard (set-aside.ts) sit under lines/ at the shard's path; restored ones
  // explain nothing any more (their lines are back).
  const inner = rel.slice(QUARANTINE_DIR.length + 1)
  const original = (inner.endsWith(RESTORED_SUFFIX) ? '' : inner.replace(/^lines\//, '')).replace(QUARANTINE_SUFFIX, '')
  const shard = parseShardPath(original)
  const view = VIEW.exec(original)
  return { rel, original, scope: shard?.scope ?? view?.[2], instance: shard?.instance, day: shard?.day }
}

export async function walkLedgerTree (dataDir: string): Promise<LedgerTree> {
  const tree: LedgerTree = { scopes: [], views: [], operational: [], quarantined: [], unknown: [] }
  const scopes = new Set<string>()
  for (const top of ['streams', 'bus', 'archive']) {
    for (const rel of await filesBelow(dataDir, top)) {
      if (rel.startsWith(`${QUARANTINE_DIR}/`)) {
        tree.quarantined.push(quarantined(rel))
        continue
      }
      const shard = parseShardPath(rel)
      if (shard === undefined) tree.unknown.push(rel)
      else scopes.add(shard.scope)
    }
  }
  for (const rel of await filesBelow(dataDir, 'views')) {
    const view = VIEW.exec(rel)
    if (view === null) tree.unknown.push(rel)
    else tree.views.push({ rel, folder: view[1] as ViewFolder, scope: view[2] as string, month: view[3] as string })
  }
  for (const top of ['coordination', 'governance']) {
    for (const rel of await filesBelow(dataDir, top)) if (rel.endsWith('.jsonl')) tree.operational.push(rel)
  }
  tree.scopes = [...scopes].sort()
  return tree
}
