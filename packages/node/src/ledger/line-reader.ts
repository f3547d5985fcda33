import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { READ_CHUNK_BYTES } from './constants.js'
import { errnoOf, ioError } from '../fs/index.js'

/**
 * Raw lines of a JSONL file with their byte offsets, so a finding can point at the exact bytes
 * (spec §2: line-oriented for auditability and partial recovery). `.jsonl.gz` archives (spec §4) are
 * decompressed on the fly; their offsets count decompressed bytes.
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** A line's bytes as text, or undefined when they are not valid UTF-8 (a corrupt line: never decoded with replacement characters). */
export function decodeUtf8 (bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes)
  } catch {
    return undefined
  }
}

export interface RawLine {
  /** Byte offset of the line's first byte (in the decompressed stream for archives). */
  offset: number
  /** 1-based line number. */
  line: number
  /** The line without its newline. */
  bytes: Buffer
  /** False only for a last line that has no newline: a write that never completed. */
  terminated: boolean
}

export interface ReadLinesOptions {
  /** Read no further than this byte offset (a file being appended: its durable size). */
  limit?: number
}

/** A failure of the archive's gzip stream: the lines before it were read, the rest is unreadable. */
export class ArchiveReadError extends Error {
  override readonly name = 'ArchiveReadError'
  constructor (readonly offset: number, cause: unknown) {
    super(`archive unreadable after ${offset} decompressed bytes: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

export function isArchive (path: string): boolean {
  return path.endsWith('.gz')
}

function openStream (path: string, limit: number | undefined): Readable {
  const end = limit === undefined ? undefined : limit - 1
  if (!isArchive(path)) return createReadStream(path, { highWaterMark: READ_CHUNK_BYTES, ...(end === undefined ? {} : { end }) })
  const source = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })
  const gunzip = createGunzip({ chunkSize: READ_CHUNK_BYTES })
  source.on('error', (err) => gunzip.destroy(err))
  return source.pipe(gunzip)
}

/**
 * Yields every line of `path`. Missing file → nothing (a shard may be archived between listing and
 * reading; the caller lists archives too). I/O errors → IO_ERROR; a broken archive → ArchiveReadError
 * after the lines that decompressed.
 */
export async function * readRawLines (path: string, options: ReadLinesOptions = {}): AsyncGenerator<RawLine> {
  if (options.limit === 0) return
  const stream = openStream(path, options.limit)
  let pending: Buffer | undefined
  let pendingOffset = 0
  let line = 0
  let consumed = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const data = pending === undefined ? chunk : Buffer.concat([pending, chunk])
      const base = pending === undefined ? consumed : pendingOffset
      consumed += chunk.length
      let start = 0
      let newline = data.indexOf(0x0a, start)
      while (newline !== -1) {
        yield { offset: base + start, line: ++line, bytes: data.subarray(start, newline), terminated: true }
        start = newline + 1
        newline = data.indexOf(0x0a, start)
      }
      pending = start < data.length ? data.subarray(start) : undefined
      pendingOffset = base + start
    }
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return
    if (isArchive(path) && errnoOf(err) !== 'EACCES' && errnoOf(err) !== 'EIO') throw new ArchiveReadError(consumed, err)
    throw ioError('read', path, err)
  } finally {
    stream.destroy()
  }
  if (pending !== undefined) yield { offset: pendingOffset, line: line + 1, bytes: pending, terminated: false }
}
