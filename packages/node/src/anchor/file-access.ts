import { constants } from 'node:fs'
import { lstat, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { errnoOf, ioError } from '../fs/index.js'

/*
 * Which files a file anchor may read (anchors-v1 §2.1). A file anchor's bytes go into the blockstore
 * and every peer can fetch them, so reading a file is publishing it. Two rules:
 *  - never the home's private files (`keys/`, `.memory/`: key seeds, the API token, locks), whoever
 *    asks, resolved through realpath so a symlink, a `..` or a hard link elsewhere does not reach them;
 *  - a daemon (and `isnad mcp`) reads only under the directories its operator allowed; the CLI and
 *    the library without a daemon read any of the user's own files.
 */

/** What a node lets a file anchor read. */
export interface FileAnchorAccess {
  /** Directories (or files) never read, e.g. the home's `keys/` and `.memory/`. */
  forbidden: readonly string[]
  /**
   * Secret files, or directories of them, whose inodes a file elsewhere must not share (a hard
   * link): the keys and the API token. Walked only for a file with more than one link.
   */
  secrets?: readonly string[]
  /** Directories files may be read from; undefined: anywhere but `forbidden`. An empty list: nowhere. */
  allowed?: readonly string[] | undefined
  /**
   * How the operator allows a directory, as a refusal names it: the command that does it where the
   * refused caller runs (`isnad config set anchor-dir <dir>` for a daemon, `isnad mcp --anchor-dir
   * <dir>` for the MCP server). @default 'the node\'s `anchor-dir` setting'
   */
  allowedBy?: string
}

/** A file anchor's file, opened: read it through `handle` (not its path, which may change meanwhile). */
export interface OpenedAnchorFile {
  handle: FileHandle
  /** The path the handle is open on, symlinks resolved. */
  realPath: string
}

function forbidden (path: string, why: string): IsnadError {
  return new IsnadError('PATH_FORBIDDEN', `file anchors may not read ${path}: ${why}`, { details: { path } })
}

function isWithin (path: string, directory: string): boolean {
  const rel = relative(directory, path)
  // A first segment of exactly `..` leaves the directory; `..foo` is a name inside it.
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..')
}

/** The real path of `path`, or its lexical absolute path when it does not exist (yet). */
async function realOrResolved (path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return resolve(path)
    throw ioError('resolve', path, err)
  }
}

/**
 * PATH_FORBIDDEN unless `realPath` (already symlink-free) may be read under `access`. The
 * forbidden and allowed roots are resolved too, so a symlinked home or allowed directory compares
 * as what it points to.
 */
async function assertPlace (shown: string, realPath: string, access: FileAnchorAccess): Promise<void> {
  for (const root of access.forbidden) {
    if (isWithin(realPath, await realOrResolved(root)) || isWithin(realPath, resolve(root))) {
      throw forbidden(shown, 'it is one of the node\'s private files (keys, API token, ledger internals)')
    }
  }
  if (access.allowed === undefined) return
  for (const dir of access.allowed) {
    if (isWithin(realPath, await realOrResolved(dir))) return
  }
  const allow = access.allowedBy ?? 'the node\'s `anchor-dir` setting'
  throw forbidden(shown, access.allowed.length === 0
    ? `this node reads no files for API and MCP clients; allow a directory with ${allow}`
    : `it is outside the directories this node reads for API and MCP clients; allow its directory with ${allow}`)
}

/**
 * Checks a path without opening it: PATH_FORBIDDEN when it is (or resolves into) a forbidden place
 * or lies outside the allowed ones. Nothing about the file's existence is revealed for a refused
 * path. `isnad mcp` uses this for its own allowance before handing the path to a node.
 */
export async function assertFileAnchorAllowed (path: string, access: FileAnchorAccess): Promise<string> {
  const absolute = resolve(path)
  let real: string
  try {
    real = await realpath(absolute)
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT' && errnoOf(err) !== 'ENOTDIR' && errnoOf(err) !== 'EACCES') throw ioError('resolve', absolute, err)
    await assertPlace(absolute, absolute, access) // refused before "not found" (no existence oracle)
    throw new IsnadError('NOT_FOUND', `no file ${absolute}`, { cause: err })
  }
  await assertPlace(absolute, real, access)
  return real
}

/**
 * Opens a file anchor's file for reading, after `assertFileAnchorAllowed`. The real path is opened
 * with O_NOFOLLOW (a symlink swapped in meanwhile is refused), O_NONBLOCK (a FIFO does not hang the
 * node), and then checked again from the open descriptor: the path the kernel says it is open on
 * (/proc/self/fd, where there is one) and its inode, which must not be a key file's or the token's
 * (a hard link elsewhere to a private file shares its inode).
 */
export async function openAnchorFile (path: string, access: FileAnchorAccess): Promise<OpenedAnchorFile> {
  const shown = resolve(path)
  const real = await assertFileAnchorAllowed(path, access)
  let handle: FileHandle
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (err) {
    if (errnoOf(err) === 'ELOOP') throw forbidden(shown, 'it was replaced by a symbolic link while being opened')
    if (errnoOf(err) === 'ENOENT') throw new IsnadError('NOT_FOUND', `no file ${shown}`, { cause: err })
    throw ioError('open', shown, err)
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new IsnadError('USAGE', `${shown} is not a regular file`)
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => real)
    if (opened !== real) await assertPlace(shown, opened, access)
    if (stats.nlink > 1) {
      for (const root of access.secrets ?? []) {
        if (await holdsInode(root, stats.dev, stats.ino)) throw forbidden(shown, 'it is a hard link to one of the node\'s private files')
      }
    }
    return { handle, realPath: opened }
  } catch (err) {
    await handle.close()
    throw err
  }
}

/** @default 4096 — entries of a private directory walked when looking for a hard-linked inode. */
const MAX_INODE_WALK = 4096

/**
 * Whether any regular file under `root` (depth-first, at most MAX_INODE_WALK entries, symlinks not
 * followed) has this inode. Only asked for files with several links, so usually never.
 */
async function holdsInode (root: string, dev: number, ino: number): Promise<boolean> {
  const stack = [root]
  let seen = 0
  while (stack.length > 0 && seen < MAX_INODE_WALK) {
    const path = stack.pop() as string
    const stats = await lstat(path).catch(() => null)
    seen++
    if (stats === null) continue
    if (stats.isFile() && stats.dev === dev && stats.ino === ino) return true
    if (!stats.isDirectory()) continue
    const names = await readdir(path).catch(() => [])
    for (const name of names) stack.push(join(path, name))
  }
  return false
}
