import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic as writeDurably } from '../../fs/index.js'

/** `_meta/` files are readable by anyone who can read the data directory. */
const META_FILE_MODE = 0o644

/**
 * Replaces `path` with `text` atomically (temp file, fsync, rename, fsync of the directory): a reader
 * sees the old file or the new one, never a half-written one.
 */
export async function writeFileAtomic (path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeDurably(path, text, META_FILE_MODE)
}
