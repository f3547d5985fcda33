import { randomBytes } from 'node:crypto'
import { chmod, lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { KEY_DIRECTORY_MODE } from './constants.js'

/** The errno code of a node:fs error, if any. */
export function errnoOf (err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/** fs errors carry only paths and errno, never file contents, so they are safe as a cause. */
export function ioError (action: string, path: string, cause: unknown): IsnadError {
  return new IsnadError('IO_ERROR', `cannot ${action} ${path}: ${errnoOf(cause) ?? 'unknown error'}`, {
    details: { file: path }, cause
  })
}

/**
 * Creates the directory if needed and makes it 0700 even when it already existed (the project's
 * `keys/` is checked out 0755): the file names are the dids, which is already more than others need.
 */
export async function ensurePrivateDirectory (directory: string): Promise<void> {
  try {
    await mkdir(directory, { recursive: true, mode: KEY_DIRECTORY_MODE })
    await chmod(directory, KEY_DIRECTORY_MODE)
  } catch (err) {
    throw ioError('create the key directory', directory, err)
  }
}

/** lstat, so a dangling symlink also counts as taken. */
export async function pathExists (path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false
    throw ioError('inspect', path, err)
  }
}

/**
 * The text of a small file, or undefined when it does not exist. Too large or not a regular file →
 * `invalid(reason)`; any other failure → IO_ERROR.
 */
export async function readSmallFile (
  path: string, maxBytes: number, invalid: (reason: string) => IsnadError
): Promise<string | undefined> {
  let handle: FileHandle | undefined
  try {
    handle = await open(path, 'r')
    const stats = await handle.stat()
    if (!stats.isFile()) throw invalid('not a regular file')
    if (stats.size > maxBytes) throw invalid(`larger than ${maxBytes} bytes`)
    const text = await handle.readFile({ encoding: 'utf8' })
    // The file may have grown since stat; the limit holds for what was actually read.
    if (Buffer.byteLength(text, 'utf8') > maxBytes) throw invalid(`larger than ${maxBytes} bytes`)
    return text
  } catch (err) {
    if (err instanceof IsnadError) throw err
    if (errnoOf(err) === 'ENOENT') return undefined
    if (errnoOf(err) === 'EISDIR') throw invalid('not a regular file')
    throw ioError('read', path, err)
  } finally {
    await handle?.close()
  }
}

/**
 * Writes `path` so that a crash leaves either the old file or the new one, never a torn one: a temp
 * file in the same directory (rename is atomic only within one file system), fsync, rename over the
 * target, then fsync the directory so the rename itself is durable. The temp file is created with
 * `mode` from the start, so the secret is never readable by others, not even for an instant.
 */
export async function writeFileAtomic (path: string, data: string, mode: number): Promise<void> {
  const directory = dirname(path)
  // Dot-prefixed and not `*.json`, so a leftover from a crash is never taken for a key file.
  const temp = join(directory, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  let handle: FileHandle | undefined
  try {
    handle = await open(temp, 'wx', mode)
    await handle.chmod(mode) // the umask may have narrowed `mode`; make it exact
    await handle.writeFile(data, { encoding: 'utf8' })
    await handle.sync()
    await handle.close()
    handle = undefined
    await rename(temp, path)
  } catch (err) {
    await handle?.close().catch(() => {})
    await rm(temp, { force: true }).catch(() => {})
    throw ioError('write', path, err)
  }
  await syncDirectory(directory)
}

/** Errnos of platforms that cannot open or fsync a directory (Windows); there rename is all we get. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP'])

async function syncDirectory (directory: string): Promise<void> {
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
