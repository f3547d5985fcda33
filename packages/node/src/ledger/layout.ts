import { join, relative, sep } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { scopeName, typedId, ID_PREFIXES } from '../schema/index.js'
import { TORN_EVIDENCE_DIR, WRITER_LOCK_FILE } from './constants.js'
import { ensureDirectory } from '../fs/index.js'

/**
 * The runtime tree of the Memory Format Spec V3.1 §3 and the shard paths of §4 and §10. Paths are
 * functions of their inputs only; the clock never enters here (a shard's day is the UTC date of the
 * event's own `ts_wall`).
 */

/** Every directory of spec §3, relative to the data directory, parents before children. */
export const DATA_DIRECTORIES = [
  '_meta',
  'streams',
  'bus',
  'views', 'views/facts', 'views/decisions', 'views/commitments', 'views/attach',
  'coordination',
  'projects',
  'governance', 'governance/findings', 'governance/health', 'governance/actions',
  'index',
  'archive',
  'evidence'
] as const

/** The operational ledgers of spec §10, relative to the data directory. */
export const LEDGER_FILES = {
  instances: 'coordination/instances.jsonl',
  cursors: 'coordination/cursors.jsonl',
  leases: 'coordination/leases.jsonl',
  conflicts: 'coordination/conflicts.jsonl',
  reducers: 'coordination/reducers.jsonl',
  findings: 'governance/findings/findings.jsonl',
  scorecards: 'governance/health/scorecards.jsonl',
  plans: 'governance/actions/plans.jsonl',
  executions: 'governance/actions/executions.jsonl'
} as const
export type LedgerFileName = keyof typeof LEDGER_FILES

export interface DataLayoutHooks {
  /** Writes `_meta/` (spec.json, policy.json, the JSON Schemas); owned by the node's init. */
  writeMeta?: (dataDir: string) => Promise<void>
}

/** Creates the whole spec §3 tree under `dataDir`; idempotent, and durable (new directories fsynced). */
export async function createDataLayout (dataDir: string, hooks: DataLayoutHooks = {}): Promise<void> {
  await ensureDirectory(dataDir)
  for (const directory of DATA_DIRECTORIES) await ensureDirectory(join(dataDir, directory))
  await hooks.writeMeta?.(dataDir)
}

/** `YYYY-MM-DD` of a UTC ISO-8601 `ts_wall` (spec §7: always `Z`, so the prefix is the UTC date). */
export function utcDay (tsWall: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(tsWall)) throw new IsnadError('TIMESTAMP_INVALID', `not a UTC timestamp: ${tsWall}`)
  return tsWall.slice(0, 10)
}

function assertScope (scope: string): void {
  if (!scopeName.safeParse(scope).success) throw new IsnadError('USAGE', `invalid scope name: ${JSON.stringify(scope)}`)
}

const instanceId = typedId(ID_PREFIXES.instance)

/** spec §4: `streams/<scope>/<instance_id>/YYYY-MM-DD.jsonl`, one writer per file. */
export function streamShardPath (dataDir: string, scope: string, instance: string, day: string): string {
  assertScope(scope)
  if (!instanceId.safeParse(instance).success) throw new IsnadError('USAGE', `invalid instance id: ${instance}`)
  return join(dataDir, 'streams', scope, instance, `${day}.jsonl`)
}

/** spec §4: `bus/<scope>/YYYY-MM-DD.jsonl`. */
export function busShardPath (dataDir: string, scope: string, day: string): string {
  assertScope(scope)
  return join(dataDir, 'bus', scope, `${day}.jsonl`)
}

export function streamDirectory (dataDir: string, scope: string, instance: string): string {
  return join(dataDir, 'streams', scope, instance)
}

export function busDirectory (dataDir: string, scope: string): string {
  return join(dataDir, 'bus', scope)
}

export function ledgerFilePath (dataDir: string, name: LedgerFileName): string {
  return join(dataDir, LEDGER_FILES[name])
}

export function writerLockPath (dataDir: string): string {
  return join(dataDir, WRITER_LOCK_FILE)
}

/** A path inside the data directory, with `/` separators: how findings and evidence name files. */
export function dataRelative (dataDir: string, path: string): string {
  return relative(dataDir, path).split(sep).join('/')
}

/**
 * spec §4: `archive/` holds compressed copies of old shards at the same relative path plus `.gz`
 * (`streams/s/ins_…/2026-01-01.jsonl` → `archive/streams/s/ins_…/2026-01-01.jsonl.gz`). The archiver
 * writes and fsyncs the copy before it deletes the live shard, so a reader that finds both reads
 * the live one only.
 */
export function archivePathFor (dataDir: string, shardPath: string): string {
  return join(dataDir, 'archive', ...dataRelative(dataDir, shardPath).split('/')) + '.gz'
}

/**
 * `governance/findings/torn/<shard path with / as __>.<offset>.bin`: the relative path, flattened,
 * because every shard of every scope is named after its day and the bare name would collide.
 */
export function tornEvidencePath (dataDir: string, file: string, offset: number): string {
  return join(dataDir, TORN_EVIDENCE_DIR, `${dataRelative(dataDir, file).split('/').join('__')}.${offset}.bin`)
}
