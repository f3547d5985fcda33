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
  return `${VIEWS_DIR}/${VIEW_FOLDER_OF_TYPE[type]}/${checkedScope(scope)}/${monthOf(ts)}.jsonl`
}

export function attachShardPath (scope: string, ts: string): string {
  return `${VIEWS_DIR}/${ATTACH_FOLDER}/${checkedScope(scope)}/${monthOf(ts)}.jsonl`
}

// A scope becomes a directory name: the schema's pattern allows no `/` or `\` and a name starts
// with a letter or digit (never `.` or `..`), so a scope can never lead out of views/<type>/.
function checkedScope (scope: string): string {
  if (!scopeName.safeParse(scope).success) throw new IsnadError('USAGE', `not a valid scope name: ${JSON.stringify(scope)}`)
  return scope
}
