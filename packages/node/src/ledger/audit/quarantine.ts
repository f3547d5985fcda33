import { rename } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { ensureDirectory, ioError, pathExists, syncDirectory } from '../../fs/index.js'
import { archivePathFor, dataRelative } from '../index.js'
import { QUARANTINE_DIR } from './constants.js'
import { parseShardPath } from './walk.js'

/**
 * Quarantine (repair): a corrupt shard is moved, whole and unchanged, to
 * `archive/quarantine/<its relative path>`, where no reader looks (listScopeShards reads streams/,
 * bus/ and archive/{streams,bus}/ only). rename(2) is atomic, and both directories are fsynced so the
 * move survives a crash. Nothing is deleted and no line is edited (spec §9); a second quarantine of
 * the same path gets a `.1`, `.2`… suffix.
 */

async function freeTarget (dataDir: string, rel: string): Promise<string> {
  const base = join(dataDir, QUARANTINE_DIR, ...rel.split('/'))
  let target = base
  for (let n = 1; await pathExists(target); n++) target = `${base}.${n}`
  return target
}

async function move (dataDir: string, rel: string): Promise<string> {
  const source = join(dataDir, ...rel.split('/'))
  const target = await freeTarget(dataDir, rel)
  await ensureDirectory(dirname(target))
  try {
    await rename(source, target)
  } catch (err) {
    throw ioError('quarantine', source, err)
  }
  await syncDirectory(dirname(target))
  await syncDirectory(dirname(source))
  return dataRelative(dataDir, target)
}

/**
 * Moves `rel` to quarantine; returns where it (and, for a live event shard, an archived copy of it
 * that readers would otherwise fall back to) went. Undefined when `rel` is already gone.
 */
export async function quarantineFile (dataDir: string, rel: string): Promise<string[] | undefined> {
  if (!(await pathExists(join(dataDir, ...rel.split('/'))))) return undefined
  const moved = [await move(dataDir, rel)]
  if (!rel.endsWith('.gz') && parseShardPath(rel) !== undefined) {
    const copy = archivePathFor(dataDir, join(dataDir, ...rel.split('/')))
    if (await pathExists(copy)) moved.push(await move(dataDir, dataRelative(dataDir, copy)))
  }
  return moved
}
