import { randomBytes } from 'node:crypto'
import { access, lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import { diskFullError, isDiskFull, IsnadError } from '../errors/index.js'

/*
 * Durable file primitives shared by the keystore, the ledger, `_meta/` and the API's token and
 * daemon files: one implementation of "written means it survives a crash", and the one home of the
 * project's file helpers.
 */

/** The errno code of a node:fs error, if any. */
export function errnoOf (err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/**
 * fs errors carry only paths and errno, never file contents, so they are safe as a cause. A full
 * disk or quota (ENOSPC, EDQUOT) is DISK_FULL, every other failure IO_ERROR.
 */
export function ioError (action: string, path: string, cause: unknown): IsnadError {
  if (cause instanceof IsnadError) return cause
  if (isDiskFull(cause)) return diskFullError(path, cause, { file: path })
  return new IsnadError('IO_ERROR', `cannot ${action} ${path}: ${errnoOf(cause) ?? String(cause)}`, {
    details: { file: path }, cause
  })
}

/**
 * Whether `path` exists; IO_ERROR for anything but its absence (a permission, an I/O error). With
 * `noFollow` a symlink is itself the entry (lstat), so a dangling one also counts as taken.
 */
export async function pathExists (path: string, { noFollow = false } = {}): Promise<boolean> {
  try {
    await (noFollow ? lstat(path) : access(path))
    return true
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false
    throw ioError(noFollow ? 'inspect' : 'check', path, err)
  }
}

/** How withFile opens its file, and what it calls the work in an error. */
export interface FileUse<T> {
  /** open(2) flags, as node:fs spells them (`r`, `r+`, `w`). */
  flags: string
  mode?: number
  /** The verb of the error message: `cannot <action> <path>`. */
  action: string
  /** Given, a file that does not exist gives this instead of an error. */
  ifMissing?: T
}

/**
 * Opens `path`, runs `use` on the handle and closes it whatever happens. A failure is
 * ioError(`action`, path); an IsnadError `use` throws passes through as it is.
 */
export async function withFile<T> (path: string, how: FileUse<T>, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  let handle: FileHandle | undefined
  try {
    handle = await open(path, how.flags, how.mode)
    return await use(handle)
  } catch (err) {
    if (how.ifMissing !== undefined && errnoOf(err) === 'ENOENT') return how.ifMissing
    throw ioError(how.action, path, err)
  } finally {
    await handle?.close()
  }
}

/** Errnos of platforms that cannot open or fsync a directory (Windows); there rename is all we get. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP'])

/**
 * fsync a directory, so that the entries created in it (a new file, a rename) survive a crash:
 * fsync of a file makes its data durable, not its name (fsync(2), "Notes").
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
 * Writes `path` so that a crash leaves either the old file or the new one, never a torn one: a temp
 * file in the same directory (rename is atomic only within one file system), fsync, rename over the
 * target, then fsync the directory so the rename itself is durable. The temp file is created with
 * `mode` from the start, so a secret is never readable by others, not even for an instant; its name
 * is dot-prefixed and ends in `.tmp`, so a leftover from a crash is never taken for a real file.
 */
export async function writeFileAtomic (path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const directory = dirname(path)
  const temp = join(directory, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  let handle: FileHandle | undefined
  try {
    handle = await open(temp, 'wx', mode)
    await handle.chmod(mode) // the umask may have narrowed `mode`; make it exact
    await handle.writeFile(data, typeof data === 'string' ? { encoding: 'utf8' } : {})
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
