import { randomBytes } from 'node:crypto'
import { link, open, readFile, unlink, type FileHandle } from 'node:fs/promises'
import { hostname as osHostname } from 'node:os'
import { dirname } from 'node:path'
import { IsnadError } from '../errors/index.js'
import { WriterLockInfoSchema, type WriterLockInfo } from './coordination-schema.js'
import { errnoOf, ioError, syncDirectory } from '../fs/index.js'

/**
 * The single-writer lock of a data directory (docs/architecture.md, "The data directory"): `coordination/writer.lock` holds the
 * holder's pid, hostname, instance, run and lease ids. Exactly one process may append to a data
 * directory's ledgers; the Lamport clock, group commit and torn-tail recovery all assume it.
 *
 * The lock is created exclusively: the content is written and fsynced to a temporary file that is
 * then link(2)ed to the lock name. link fails with EEXIST exactly like open(O_CREAT | O_EXCL), but the
 * lock appears with its content complete, so a crash can never leave an empty lock nobody can judge.
 */

export interface AcquireLockInit {
  lockPath: string
  info: WriterLockInfo
  /** True when this process holds that lease itself (another ledger of the same process). */
  isHeldHere: (holder: WriterLockInfo) => boolean
}

export interface AcquiredLock {
  info: WriterLockInfo
  /** The dead holder whose stale lock was replaced, if any: the caller records a handoff. */
  takenOver: WriterLockInfo | undefined
}

/** @default 3 — tries when the lock changes hands while it is being examined. */
const ACQUIRE_ATTEMPTS = 3

export async function acquireWriterLock (init: AcquireLockInit): Promise<AcquiredLock> {
  const { lockPath, info } = init
  for (let attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt++) {
    if (await createExclusive(lockPath, info)) return { info, takenOver: undefined }
    const holder = await readLock(lockPath)
    if (holder === 'missing') continue // released meanwhile: try again
    assertNotLive(lockPath, holder, init.isHeldHere)
    // Stale: the holder died without releasing. A takeover guard makes sure two processes that both
    // judged it stale do not both replace it (the loser would delete the winner's fresh lock).
    const guard = `${lockPath}.takeover`
    if (!(await createExclusive(guard, info))) {
      const other = await readLock(guard)
      if (other !== 'missing') {
        assertNotLive(guard, other, init.isHeldHere)
        await removeIfSame(guard, other)
      }
      continue
    }
    try {
      const again = await readLock(lockPath)
      if (again === 'missing' || again === 'unreadable' || again.lease_id !== holder.lease_id) continue
      await unlink(lockPath).catch((err: unknown) => { if (errnoOf(err) !== 'ENOENT') throw ioError('remove', lockPath, err) })
      if (await createExclusive(lockPath, info)) return { info, takenOver: holder }
    } finally {
      await unlink(guard).catch(() => {})
    }
  }
  throw new IsnadError('LEDGER_LOCKED', `could not acquire ${lockPath}: it keeps changing hands`, { details: { file: lockPath } })
}

/** Removes the lock if it is still ours; false when someone else holds it now. */
export async function releaseWriterLock (lockPath: string, info: WriterLockInfo): Promise<boolean> {
  const holder = await readLock(lockPath)
  if (holder === 'missing' || holder === 'unreadable' || holder.lease_id !== info.lease_id) return false
  await removeIfSame(lockPath, holder)
  return true
}

/** Is the process named in the lock alive on this host? */
export function isHolderAlive (holder: WriterLockInfo, isHeldHere: (holder: WriterLockInfo) => boolean): boolean {
  // Another host: its processes cannot be probed from here, so it counts as alive (shared disks).
  if (holder.hostname !== osHostname()) return true
  // Our own pid: either this process holds it, or a previous process that had our pid (containers
  // restart with the same pid) died holding it.
  if (holder.pid === process.pid) return isHeldHere(holder)
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (err) {
    return errnoOf(err) !== 'ESRCH' // EPERM: alive, owned by another user
  }
}

function assertNotLive (lockPath: string, holder: WriterLockInfo | 'unreadable', isHeldHere: (holder: WriterLockInfo) => boolean): asserts holder is WriterLockInfo {
  if (holder === 'unreadable') {
    throw new IsnadError('LEDGER_LOCKED', `${lockPath} exists but cannot be read as a lock; remove it if no isnad process uses this directory`, {
      details: { file: lockPath }
    })
  }
  if (isHolderAlive(holder, isHeldHere)) {
    const where = holder.hostname === osHostname() ? '' : ` on host ${holder.hostname}`
    throw new IsnadError('LEDGER_LOCKED', `the data directory is in use by another writer: pid ${holder.pid}${where} (since ${holder.started_at}, ${lockPath})`, {
      details: { file: lockPath, pid: holder.pid, hostname: holder.hostname, instance_id: holder.instance_id, run_id: holder.run_id, started_at: holder.started_at }
    })
  }
}

async function readLock (path: string): Promise<WriterLockInfo | 'missing' | 'unreadable'> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 'missing'
    throw ioError('read', path, err)
  }
  try {
    const parsed = WriterLockInfoSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : 'unreadable'
  } catch {
    return 'unreadable'
  }
}

/** Unlinks `path` if it still holds `expected`'s lease. */
async function removeIfSame (path: string, expected: WriterLockInfo): Promise<void> {
  const current = await readLock(path)
  if (current === 'missing' || current === 'unreadable' || current.lease_id !== expected.lease_id) return
  try {
    await unlink(path)
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') throw ioError('remove', path, err)
  }
  await syncDirectory(dirname(path))
}

/** Creates `path` with `info` as its complete content; false if it already exists. */
async function createExclusive (path: string, info: WriterLockInfo): Promise<boolean> {
  const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`
  let handle: FileHandle | undefined
  try {
    handle = await open(temp, 'wx', 0o644)
    await handle.writeFile(JSON.stringify(info) + '\n')
    await handle.sync()
    await handle.close()
    handle = undefined
    try {
      await link(temp, path)
    } catch (err) {
      if (errnoOf(err) === 'EEXIST') return false
      throw err
    }
    await syncDirectory(dirname(path))
    return true
  } catch (err) {
    throw ioError('create', path, err)
  } finally {
    await handle?.close().catch(() => {})
    await unlink(temp).catch(() => {})
  }
}
