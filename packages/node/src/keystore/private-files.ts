import { chmod, mkdir, open, type FileHandle } from 'node:fs/promises'
import { IsnadError } from '../errors/index.js'
import { errnoOf, ioError } from '../fs/index.js'
import { KEY_DIRECTORY_MODE } from './constants.js'

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
