import { readdir, rm, stat, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { scopeName } from '../../schema/index.js'
import { errnoOf, ioError, syncDirectory, withFile } from '../../fs/index.js'
import { lastLineEnded } from '../tail.js'
import {
  archivePathFor, dataRelative, listScopeShards, PACK_EVENT_TYPE, packCarOf, packPath, PackPayloadSchema, readEntries, readPackCar, utcDay,
  validateEventLine, writePackFile, type ShardRef
} from '../index.js'
import { DAY_MS } from './constants.js'
import { digestArchive, hasArchiveHeader, writeArchive } from './gzip.js'
import { underWriterLock } from './repair-lock.js'

/**
 * `isnad ledger archive` (spec §4 `archive/`): stream and bus shards older than the
 * policy's age are compressed to `archive/<path>.gz` and the live shard removed. Each step is
 * durable before the next: the archive is written to a temporary file, fsynced, renamed, its
 * directory fsynced (gzip.ts); then read back and compared with the shard; only then is the shard
 * unlinked and its directory fsynced. A crash at any point leaves the shard, or the shard and a
 * complete copy (readers then read the shard: listScopeShards), or the copy alone.
 *
 * A shard of the current UTC day is never touched (the open ledger appends to it), nor one whose
 * last line is torn (recovery or repair must deal with it first).
 *
 * The index locates records inside the `memory.packed` lines of stream shards (docs/ledger-packs.md),
 * which a compressed shard no longer allows: before a shard is compressed, each pack inside its
 * events is written out as its pack file (`packs/<scope>/<CID>.car`, the same bytes, durable), and
 * the caller rebuilds the index (`packs` > 0), which then locates those records in the files.
 */

export interface ArchiveInit {
  dataDir: string
  /** Only this scope. @default every scope */
  scope?: string
  /** Shards whose UTC day lies more than this many days before today (policy.json `archive_after_days`). */
  olderThanDays: number
  /** ms since the epoch. */
  now: () => number
  /** The caller (a node) holds the writer lock already. @default false */
  holdsLock?: boolean
}

export interface ArchivedShard {
  /** Relative to the data directory. */
  from: string
  to: string
  bytes: number
  compressed: number
}

export interface ArchiveResult {
  archived: ArchivedShard[]
  skipped: Array<{ file: string, reason: string }>
  /** Packs inside events of the archived shards written out as pack files: the index must be rebuilt to locate their records there. */
  packs: number
}

async function listScopes (dataDir: string): Promise<string[]> {
  const scopes = new Set<string>()
  for (const top of ['streams', 'bus']) {
    try {
      for (const name of await readdir(join(dataDir, top))) if (scopeName.safeParse(name).success) scopes.add(name)
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') throw ioError('list', join(dataDir, top), err)
    }
  }
  return [...scopes].sort()
}

/** False when the file's last byte is not a newline: a torn write. */
async function endsWithNewline (path: string): Promise<boolean> {
  return await withFile(path, { flags: 'r', action: 'read' }, lastLineEnded)
}

export async function archiveShards (init: ArchiveInit): Promise<ArchiveResult> {
  const { dataDir, olderThanDays } = init
  if (!Number.isSafeInteger(olderThanDays) || olderThanDays < 0) throw new IsnadError('USAGE', `the age must be a whole number of days ≥ 0, got ${olderThanDays}`)
  if (init.scope !== undefined && !scopeName.safeParse(init.scope).success) throw new IsnadError('USAGE', `invalid scope name: ${JSON.stringify(init.scope)}`)
  const today = utcDay(new Date(init.now()).toISOString())
  const isOld = (shard: ShardRef): boolean => shard.day < today && (Date.parse(today) - Date.parse(shard.day)) / DAY_MS > olderThanDays
  const result: ArchiveResult = { archived: [], skipped: [], packs: 0 }
  await underWriterLock(dataDir, init.holdsLock ?? false, async () => {
    for (const scope of init.scope === undefined ? await listScopes(dataDir) : [init.scope]) {
      for (const shard of await listScopeShards(dataDir, scope)) {
        if (shard.archived || !isOld(shard)) continue
        if (shard.kind === 'stream') result.packs += await writeInlinePacks(dataDir, scope, shard.path)
        const outcome = await archiveOne(dataDir, shard.path)
        if ('reason' in outcome) result.skipped.push(outcome)
        else result.archived.push(outcome)
      }
    }
  })
  return result
}

/**
 * Writes each whole pack inside the shard's `memory.packed` events as its pack file (skipped when
 * the file is there, or the pack does not read back whole: its records are then held by the index,
 * read from the archive at the rebuild). Returns how many it wrote.
 */
async function writeInlinePacks (dataDir: string, scope: string, path: string): Promise<number> {
  let written = 0
  for await (const entry of readEntries(path, validateEventLine)) {
    if (entry.kind !== 'record' || entry.value.type !== PACK_EVENT_TYPE) continue
    const payload = PackPayloadSchema.safeParse(entry.value.payload)
    if (!payload.success || payload.data.car === undefined) continue
    if (await stat(packPath(dataDir, scope, payload.data.pack)).then(() => true, () => false)) continue
    try {
      const car = await packCarOf(dataDir, scope, payload.data)
      if (car.length !== payload.data.bytes) continue
      readPackCar(payload.data.pack, car)
      await writePackFile(dataDir, scope, { cid: payload.data.pack, car })
      written++
    } catch {
      continue // a damaged pack stays what it is: verify names it
    }
  }
  return written
}

async function archiveOne (dataDir: string, path: string): Promise<ArchivedShard | { file: string, reason: string }> {
  const file = dataRelative(dataDir, path)
  if (!(await endsWithNewline(path))) return { file, reason: 'its last line is torn: run `isnad ledger repair` first' }
  const target = archivePathFor(dataDir, path)
  const written = await writeArchive(path, target)
  const back = await digestArchive(target).catch(() => undefined)
  const size = (await stat(path)).size
  if (back?.sha256 !== written.sha256 || back.bytes !== written.bytes || size !== written.bytes || !(await hasArchiveHeader(target))) {
    // The shard stays; the copy that does not match it goes (readers would prefer the shard anyway).
    await rm(target, { force: true })
    await syncDirectory(dirname(target))
    return { file, reason: size !== written.bytes ? 'the shard changed while it was archived' : 'the archive did not read back as the shard' }
  }
  try {
    await unlink(path)
  } catch (err) {
    throw ioError('remove the archived shard', path, err)
  }
  await syncDirectory(dirname(path))
  return { from: file, to: dataRelative(dataDir, target), bytes: written.bytes, compressed: written.compressed }
}
