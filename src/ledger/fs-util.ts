import { mkdir, open, type FileHandle } from 'node:fs/promises'
import { dirname, relative, sep } from 'node:path'
import { IsnadError } from '../errors/index.js'

/** The errno code of a node:fs error, if any. */
export function errnoOf (err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/** fs errors carry only paths and errno, never file contents, so they are safe as a cause. */
export function ioError (action: string, path: string, cause: unknown): IsnadError {
  if (cause instanceof IsnadError) return cause
  return new IsnadError('IO_ERROR', `cannot ${action} ${path}: ${errnoOf(cause) ?? String(cause)}`, {
    details: { file: path }, cause
  })
}

/** Errnos of platforms that cannot open or fsync a directory (Windows); there rename is all we get. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP'])

/**
 * fsync a directory, so that the entries created in it (a new shard, a new subdirectory) survive a
 * crash: fsync of a file makes its data durable, not its name (fsync(2), "Notes").
 */
export async function syncDirectory (directory: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch (err) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(errnoOf(err) ?? '')) throw ioError('sync', directory, err)
  } finally {
    await handle?.close()
  }
}

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
