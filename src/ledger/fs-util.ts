import { mkdir, open, type FileHandle } from 'node:fs/promises'
import { dirname, relative, sep } from 'node:path'

import { errnoOf, ioError, pathExists, syncDirectory } from '../fs/index.js'

export { errnoOf, ioError, pathExists, syncDirectory }

/**
 * mkdir -p, durably: when directories were created, the parent of each new one is fsynced, so a shard
 * created below them later cannot vanish with its directory after a crash.
 */
export async function ensureDirectory (directory: string): Promise<void> {
  let first: string | undefined
  try {
    first = await mkdir(directory, { recursive: true })
  } catch (err) {
    throw ioError('create the directory', directory, err)
  }
  if (first === undefined) return
  const created = [first]
  const rest = relative(first, directory)
  if (rest !== '') {
    let at = first
    for (const part of rest.split(sep)) created.push(at = `${at}${sep}${part}`)
  }
  for (const dir of created) await syncDirectory(dirname(dir))
}

/**
 * Opens `path` for appending (O_WRONLY | O_APPEND | O_CREAT): every write lands at the end, so no
 * code path can overwrite a ledger line (spec §9). O_EXCL first tells whether the file is new; a new
 * file's name is made durable by fsyncing its directory before any line in it is acknowledged.
 */
export async function openForAppend (path: string, mode: number): Promise<{ handle: FileHandle, created: boolean }> {
  await ensureDirectory(dirname(path))
  try {
    const handle = await open(path, 'ax', mode)
    try {
      await syncDirectory(dirname(path))
    } catch (err) {
      await handle.close()
      throw err
    }
    return { handle, created: true }
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw ioError('create', path, err)
  }
  try {
    return { handle: await open(path, 'a', mode), created: false }
  } catch (err) {
    throw ioError('open for appending', path, err)
  }
}
