import { isIsoTimestamp, scopeName, type ViewObjectType } from '../../schema/index.js'
import { IsnadError } from '../../errors/index.js'
import { ATTACH_FOLDER, VIEW_FOLDER_OF_TYPE, VIEWS_DIR } from './constants.js'

/**
 * Shard paths (Memory Format Spec V3.1 §4: "views/: per-type/per-scope monthly shards"), relative to
 * the data directory, with `/` separators on every platform, so they can be recorded in ledgers:
 * `views/{facts,decisions,commitments}/<scope>/YYYY-MM.jsonl` and `views/attach/<scope>/YYYY-MM.jsonl`,
 * the month being the UTC month of the object's `ts`.
 */

/** `YYYY-MM` of a UTC timestamp: its first seven characters, since spec §7 times are UTC with `Z`. */
export function monthOf (ts: string): string {
  if (!isIsoTimestamp(ts)) throw new IsnadError('TIMESTAMP_INVALID', `not a UTC ISO-8601 timestamp: ${JSON.stringify(ts)}`)
  return ts.slice(0, 7)
}

export function viewShardPath (type: ViewObjectType, scope: string, ts: string): string {
  return shardPath(VIEW_FOLDER_OF_TYPE[type], scope, ts)
}

export function attachShardPath (scope: string, ts: string): string {
  return shardPath(ATTACH_FOLDER, scope, ts)
}

/**
 * The newest path of each folder: a node's objects mostly share a scope and a month, so each
 * reduction's shard paths are found rather than built again (a few strings per line otherwise).
 */
const lastPaths = new Map<string, { scope: string, month: string, path: string }>()

function shardPath (folder: string, scope: string, ts: string): string {
  const last = lastPaths.get(folder)
  // A valid timestamp that starts with the cached `YYYY-MM` is in that month.
  if (last !== undefined && last.scope === scope && ts.startsWith(last.month) && isIsoTimestamp(ts)) return last.path
  const month = monthOf(ts)
  const path = `${VIEWS_DIR}/${folder}/${checkedScope(scope)}/${month}.jsonl`
  lastPaths.set(folder, { scope, month, path })
  return path
}

// A scope becomes a directory name: the schema's pattern allows no `/` or `\` and a name starts
// with a letter or digit (never `.` or `..`), so a scope can never lead out of views/<type>/.
// A node writes to one scope or a few: each is checked once, not at every reduction.
const checkedScopes = new Set<string>()
const MAX_CHECKED_SCOPES = 1024

function checkedScope (scope: string): string {
  if (checkedScopes.has(scope)) return scope
  if (!scopeName.safeParse(scope).success) throw new IsnadError('USAGE', `not a valid scope name: ${JSON.stringify(scope)}`)
  if (checkedScopes.size >= MAX_CHECKED_SCOPES) checkedScopes.clear()
  checkedScopes.add(scope)
  return scope
}
