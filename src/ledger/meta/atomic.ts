import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

let counter = 0

/**
 * Replaces `path` with `text` atomically: write a temporary file beside it, fsync it, rename it over
 * the target (atomic on POSIX), then fsync the directory so the rename itself survives a crash. A
 * reader sees the old file or the new one, never a half-written one.
 */
export async function writeFileAtomic (path: string, text: string): Promise<void> {
  const directory = dirname(path)
  await mkdir(directory, { recursive: true })
  const temporary = `${path}.tmp-${process.pid}-${++counter}`
  try {
    const handle = await open(temporary, 'wx', 0o644)
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, path)
  } catch (err) {
    await rm(temporary, { force: true })
    throw err
  }
  await syncDirectory(directory)
}

async function syncDirectory (directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } catch (err) {
    // Some file systems refuse fsync on a directory (EINVAL, EISDIR); the rename is still atomic.
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw err
  } finally {
    await handle.close()
  }
}
