import { statSync } from 'node:fs'
import { IsnadError } from '../errors/index.js'
import type { LedgerEvent } from '../schema/index.js'
import { errnoOf } from '../fs/index.js'
import { mergeShards, type EventEntry } from './merge.js'
import { listScopeShards, type ShardRef } from './event-shards.js'

/**
 * Reading a scope's events while its ledger may be appending (spec §5 order, §8 checks): every
 * live shard is read only up to what was durable when the read began.
 */

/** The durable size of a shard this process is appending to, if it is. */
export type DurableSizeOf = (path: string) => number | undefined

export async function * readScopeEntries (
  dataDir: string, scope: string, durableSizeOf: DurableSizeOf, from?: number
): AsyncGenerator<EventEntry> {
  yield * readSnapshotEntries(await snapshotScope(dataDir, scope, durableSizeOf), from)
}

/**
 * What one read of a scope covers: its shards and how far to read each. Plain data, so the read
 * can be done elsewhere (reindex reads in a worker thread) exactly as readScopeEntries would.
 */
export interface ScopeSnapshot {
  /** The data directory and scope read: a `memory.packed` event's pack file is found from them. */
  dataDir: string
  scope: string
  shards: ShardRef[]
  limits: Array<[path: string, bytes: number]>
}

export async function snapshotScope (dataDir: string, scope: string, durableSizeOf: DurableSizeOf): Promise<ScopeSnapshot> {
  const shards = await listScopeShards(dataDir, scope)
  return { dataDir, scope, shards, limits: [...snapshotLimits(shards, durableSizeOf)] }
}

export function readSnapshotEntries (snapshot: ScopeSnapshot, from?: number): AsyncGenerator<EventEntry> {
  return mergeShards(snapshot.shards, { limits: new Map(snapshot.limits), ...(from === undefined ? {} : { from }) })
}

/**
 * How far to read each live shard. Synchronous on purpose: no append can slip in between, so a line
 * written after the snapshot (or half written when it was taken) is never read, and a file being
 * appended never shows a torn tail to its own reader.
 */
function snapshotLimits (shards: readonly ShardRef[], durableSizeOf: DurableSizeOf): Map<string, number> {
  const limits = new Map<string, number>()
  for (const shard of shards) {
    if (shard.archived) continue
    const size = durableSizeOf(shard.path) ?? sizeNow(shard.path)
    if (size !== undefined) limits.set(shard.path, size)
  }
  return limits
}

function sizeNow (path: string): number | undefined {
  try {
    return statSync(path).size
  } catch (err) {
    // Gone (archived meanwhile: the archive copy is listed too) → nothing; other errors surface when read.
    return errnoOf(err) === 'ENOENT' ? 0 : undefined
  }
}

/** Events only: the first entry that is not one ends the read with LEDGER_CORRUPT naming it. */
export async function * strictEvents (entries: AsyncIterable<EventEntry>): AsyncGenerator<LedgerEvent> {
  for await (const entry of entries) {
    if (entry.kind !== 'record') throw corruptAt(entry)
    yield entry.value
  }
}

/** strictEvents, each event with where its line is (file, offset, text). */
export async function * strictEntries (entries: AsyncIterable<EventEntry>): AsyncGenerator<Extract<EventEntry, { kind: 'record' }>> {
  for await (const entry of entries) {
    if (entry.kind !== 'record') throw corruptAt(entry)
    yield entry
  }
}

function corruptAt (entry: Exclude<EventEntry, { kind: 'record' }>): IsnadError {
  const { file, offset, line } = entry
  const why = entry.kind === 'torn_tail' ? 'an unterminated last line' : `${entry.reason}: ${entry.message}`
  return new IsnadError('LEDGER_CORRUPT', `${file} line ${line} (byte ${offset}): ${why}`, { details: { ...entry } })
}
