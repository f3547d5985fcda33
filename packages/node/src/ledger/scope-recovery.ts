import { isIsnadError } from '../errors/index.js'
import type { LedgerEvent } from '../schema/index.js'
import type { TornTailFinding } from './coordination-schema.js'
import { readEntries, validateEventLine } from './entries.js'
import { recoverTail, type RecoveryContext } from './recovery.js'
import { listScopeShards, listWritableShards, type ShardRef } from './event-shards.js'
import { inspectTail } from './tail.js'

/**
 * What an event ledger does at open, under the writer lock (docs/architecture.md, "The data directory"): recover the torn tail of
 * every shard this instance writes in the scope, then find the highest Lamport value of the scope so
 * the clock continues across restarts (spec §5 `lc`).
 */

export interface ScopeRecovery {
  lastLc: number
  findings: TornTailFinding[]
}

export async function recoverScope (dataDir: string, scope: string, instanceId: string, recovery: RecoveryContext): Promise<ScopeRecovery> {
  const findings: TornTailFinding[] = []
  const seen = new Set<string>()
  let lastLc = 0
  for (const shard of await listWritableShards(dataDir, scope, instanceId)) {
    const { tail, finding } = await recoverTail(shard.path, validateEventLine, recovery)
    if (finding !== undefined) findings.push(finding)
    seen.add(shard.path)
    lastLc = Math.max(lastLc, tail.last?.lc ?? 0)
  }
  // The rest (other instances' streams, archives) is read only: never truncated by this instance.
  const others = (await listScopeShards(dataDir, scope)).filter((s) => !seen.has(s.path))
  for (const shard of newestArchives(others.filter((s) => s.archived))) lastLc = Math.max(lastLc, await scanMaxLc(shard.path))
  for (const shard of others.filter((s) => !s.archived)) lastLc = Math.max(lastLc, await lastLcOf(shard.path))
  return { lastLc, findings }
}

/**
 * Archives hold shards older than every live one, so only the newest archive of each directory
 * can hold the scope's highest lc when nothing newer is live; reading just those keeps open fast.
 */
function newestArchives (archived: readonly ShardRef[]): ShardRef[] {
  const newest = new Map<string, ShardRef>()
  for (const shard of archived) {
    const key = `${shard.kind}/${shard.instance ?? ''}`
    const current = newest.get(key)
    if (current === undefined || current.day < shard.day) newest.set(key, shard)
  }
  return [...newest.values()]
}

async function lastLcOf (path: string): Promise<number> {
  try {
    return (await inspectTail<LedgerEvent>(path, validateEventLine)).last?.lc ?? 0
  } catch (err) {
    if (!isIsnadError(err, 'LEDGER_CORRUPT')) throw err
    return await scanMaxLc(path) // a damaged foreign shard: its valid lines still count
  }
}

async function scanMaxLc (path: string): Promise<number> {
  let max = 0
  for await (const entry of readEntries(path, validateEventLine)) {
    if (entry.kind === 'record') max = Math.max(max, entry.value.lc)
  }
  return max
}
