import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { errnoOf, ioError } from '../fs/index.js'
import { archivePathFor, busDirectory, streamDirectory } from './layout.js'

/**
 * The event shards of one scope (spec §4): every instance's daily stream shards, the scope's daily
 * bus shards, and their compressed copies under `archive/`.
 */

export interface ShardRef {
  path: string
  kind: 'stream' | 'bus'
  /** The writing instance, for stream shards. */
  instance: string | undefined
  /** `YYYY-MM-DD`. */
  day: string
  archived: boolean
}

const LIVE_SHARD = /^(\d{4}-\d{2}-\d{2})\.jsonl$/
const ARCHIVED_SHARD = /^(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/
const INSTANCE_DIR = /^ins_[a-z2-7]{26}$/

async function list (directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).sort()
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return []
    throw ioError('list', directory, err)
  }
}

async function shardsIn (directory: string, kind: ShardRef['kind'], instance: string | undefined, archived: boolean): Promise<ShardRef[]> {
  const pattern = archived ? ARCHIVED_SHARD : LIVE_SHARD
  const out: ShardRef[] = []
  for (const name of await list(directory)) {
    const day = pattern.exec(name)?.[1]
    if (day !== undefined) out.push({ path: join(directory, name), kind, instance, day, archived })
  }
  return out
}

/** The live shards an instance writes in a scope: its stream shards and the scope's bus shards. */
export async function listWritableShards (dataDir: string, scope: string, instance: string): Promise<ShardRef[]> {
  return [
    ...await shardsIn(streamDirectory(dataDir, scope, instance), 'stream', instance, false),
    ...await shardsIn(busDirectory(dataDir, scope), 'bus', undefined, false)
  ]
}

/**
 * Every event shard of `scope`, live and archived. An archived copy whose live shard still exists
 * (the archiver stopped between writing the copy and deleting the original) is left out: they hold
 * the same lines.
 */
export async function listScopeShards (dataDir: string, scope: string): Promise<ShardRef[]> {
  const live: ShardRef[] = []
  const archived: ShardRef[] = []
  for (const archive of [false, true]) {
    const into = archive ? archived : live
    const streams = archive ? join(dataDir, 'archive', 'streams', scope) : join(dataDir, 'streams', scope)
    for (const instance of await list(streams)) {
      if (INSTANCE_DIR.test(instance)) into.push(...await shardsIn(join(streams, instance), 'stream', instance, archive))
    }
    into.push(...await shardsIn(archive ? join(dataDir, 'archive', 'bus', scope) : busDirectory(dataDir, scope), 'bus', undefined, archive))
  }
  const livePaths = new Set(live.map((s) => archivePathFor(dataDir, s.path)))
  return [...live, ...archived.filter((s) => !livePaths.has(s.path))]
}
