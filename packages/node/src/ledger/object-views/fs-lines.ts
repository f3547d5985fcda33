import { mkdir, open, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { diskFullError, isDiskFull, IsnadError } from '../../errors/index.js'

/**
 * A plain file-system implementation of the writer's two I/O functions, for tests and tools. The node
 * plugs in the ledger's durable appender (group commit, torn-line recovery) instead; this one only
 * appends, fsyncs and never rewrites (Memory Format Spec V3.1 §9: ledgers are append-only).
 */

/**
 * Appends JSON lines to a file; each `lines` entry is one line of JSON without its newline. An
 * appender that takes the lines at once (the node's batch buffer, written durably later) may return
 * nothing: the writer then does not wait for it.
 */
export type AppendLines = (file: string, lines: readonly string[]) => Promise<void> | undefined
/** The lines of a JSONL file, without newlines; a missing file has none. */
export type ReadLines = (file: string) => Promise<string[]>

export function createFsAppend (): AppendLines {
  return async (file, lines) => {
    if (lines.length === 0) return
    await mkdir(dirname(file), { recursive: true })
    const handle = await open(file, 'a+')
    try {
      // After a crash the last line may be torn (no newline): start on a fresh line so the torn bytes
      // stay a line of their own, which readers skip, instead of corrupting the first new line.
      const { size } = await handle.stat()
      let prefix = ''
      if (size > 0) {
        const last = Buffer.alloc(1)
        await handle.read(last, 0, 1, size - 1)
        if (last[0] !== 0x0a) prefix = '\n'
      }
      await handle.appendFile(prefix + lines.join('\n') + '\n', 'utf8')
      await handle.datasync()
    } catch (err) {
      throw isDiskFull(err) ? diskFullError(file, err, { file }) : new IsnadError('IO_ERROR', `cannot append to ${file}`, { cause: err, details: { file } })
    } finally {
      await handle.close()
    }
  }
}

export const readJsonlLines: ReadLines = async (file) => {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new IsnadError('IO_ERROR', `cannot read ${file}`, { cause: err, details: { file } })
  }
  return text.split('\n').filter((line) => line !== '')
}
