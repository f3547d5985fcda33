import { read } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { IsnadError } from '../../errors/index.js'
import { errnoOf } from '../../fs/index.js'
import { cidOfBytesNative } from '../../fast-crypto/index.js'
import { cidString, recordPartOf } from '../../record/index.js'
import type { StoredValue } from './record-location.js'

/*
 * Reads records' bytes where the index located them in the ledger (record-location.ts): a pread of
 * the block in a pack file, or of the few base64 characters that hold it inside a `memory.packed`
 * line, decoded here — bytes [o, o+L) of a CAR are characters [4⌊o/3⌋, 4⌈(o+L)/3⌉) of its base64
 * (RFC 4648 §4: every 3 bytes are 4 characters), so the 100 kB line is never read whole or parsed.
 * Reads of one call that fall close together in a file (a page of records from one pack) become one
 * read. Every record is hashed against its id before it is returned: a location that no longer
 * holds its record (a ledger changed under the index, a damaged byte) is RECORD_LOCATION_INVALID,
 * never a wrong record.
 */

/** @default 16 — open ledger files kept for reads (stream shards and pack files), least recent closed first. */
export const READ_HANDLES = 16
/**
 * @default 65536 — two reads of a file this close together are made one: a page of records picked
 * across a shard costs a few larger reads from the page cache instead of one read (a trip through
 * libuv's thread pool) per record.
 */
const COALESCE_GAP = 64 * 1024
/** @default 1 MiB — the longest single read a coalesced run may become. */
const COALESCE_MAX = 1024 * 1024

export interface LocatedRead {
  id: string
  value: Exclude<StoredValue, { kind: 'held' }>
  /** The located file's path, relative to `.memory/`. */
  file: string
}

interface Span {
  read: LocatedRead
  /** The file bytes that hold the block (base64 characters for an inline pack). */
  start: number
  end: number
}

interface OpenFile {
  handle: Promise<FileHandle>
  users: number
}

export class LocationReader {
  private readonly files = new Map<string, OpenFile>()

  /** `dataDir` is the `.memory/` directory the locations are relative to. */
  constructor (private readonly dataDir: string, private readonly maxHandles = READ_HANDLES) {}

  /** The records' bytes, in input order, each checked against its id. */
  async readMany (reads: readonly LocatedRead[]): Promise<Uint8Array[]> {
    const out = new Array<Uint8Array>(reads.length)
    const byFile = new Map<string, Array<{ span: Span, index: number }>>()
    reads.forEach((read, index) => {
      const span = spanOf(read)
      const list = byFile.get(read.file)
      if (list === undefined) byFile.set(read.file, [{ span, index }])
      else list.push({ span, index })
    })
    await Promise.all([...byFile].map(async ([file, spans]) => {
      spans.sort((a, b) => a.span.start - b.span.start)
      for (const run of runsOf(spans)) {
        const start = run[0]?.span.start as number
        const end = Math.max(...run.map((s) => s.span.end))
        const bytes = await this.pread(file, start, end - start, run[0]?.span.read as LocatedRead)
        for (const { span, index } of run) out[index] = blockOf(span, bytes.subarray(span.start - start, span.end - start))
      }
    }))
    return out
  }

  private async pread (file: string, position: number, length: number, first: LocatedRead): Promise<Uint8Array> {
    const entry = this.acquire(file)
    try {
      const handle = await entry.handle
      const buffer = Buffer.allocUnsafe(length)
      let filled = 0
      while (filled < length) {
        const bytesRead = await readAt(handle.fd, buffer, filled, length - filled, position + filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return buffer.subarray(0, filled)
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') throw invalid(first, 'the file is missing')
      if (err instanceof IsnadError) throw err
      throw new IsnadError('IO_ERROR', `cannot read record ${first.id} from ${file}`, { cause: err, details: { id: first.id, file } })
    } finally {
      this.release(file, entry)
    }
  }

  private acquire (file: string): OpenFile {
    let entry = this.files.get(file)
    if (entry === undefined) {
      entry = { handle: open(join(this.dataDir, ...file.split('/')), 'r'), users: 0 }
      entry.handle.catch(() => undefined) // awaited by pread; a failed open is not kept
      this.files.set(file, entry)
    } else {
      // Most recent last: Map keeps insertion order, so the first idle entry is the least recent.
      this.files.delete(file)
      this.files.set(file, entry)
    }
    entry.users++
    return entry
  }

  private release (file: string, entry: OpenFile): void {
    entry.users--
    void entry.handle.then(undefined, () => { if (this.files.get(file) === entry) this.files.delete(file) })
    for (const [name, other] of this.files) {
      if (this.files.size <= this.maxHandles) break
      if (other.users > 0) continue
      this.files.delete(name)
      void other.handle.then(async (h) => { await h.close() }, () => undefined)
    }
  }

  /** Closes every file (a later read opens them again). */
  async close (): Promise<void> {
    const all = [...this.files.values()]
    this.files.clear()
    await Promise.all(all.map(async (entry) => { await entry.handle.then(async (h) => { await h.close() }, () => undefined) }))
  }
}

/** pread through the callback API: FileHandle.read's promise costs about twice this thread's time per call. */
function readAt (fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, length, position, (err, bytesRead) => { if (err === null) resolve(bytesRead); else reject(err) })
  })
}

function spanOf (read: LocatedRead): Span {
  const { value } = read
  if (value.kind === 'pack') return { read, start: value.offset, end: value.offset + value.length }
  const first = Math.floor(value.offset / 3)
  const last = Math.ceil((value.offset + value.length) / 3)
  return { read, start: value.base + 4 * first, end: value.base + 4 * last }
}

/** Sorted spans grouped into runs that one read covers. */
function runsOf<T extends { span: Span }> (sorted: readonly T[]): T[][] {
  const runs: T[][] = []
  let run: T[] = []
  let runStart = 0
  let runEnd = 0
  for (const item of sorted) {
    if (run.length > 0 && item.span.start <= runEnd + COALESCE_GAP && item.span.end - runStart <= COALESCE_MAX) {
      run.push(item)
      runEnd = Math.max(runEnd, item.span.end)
      continue
    }
    if (run.length > 0) runs.push(run)
    run = [item]
    runStart = item.span.start
    runEnd = item.span.end
  }
  if (run.length > 0) runs.push(run)
  return runs
}

/** The block's bytes from what was read for its span, checked against the record's id. */
function blockOf (span: Span, read: Uint8Array): Uint8Array {
  const { value } = span.read
  if (read.length !== span.end - span.start) throw invalid(span.read, 'the file ends before it')
  let bytes: Uint8Array
  if (value.kind === 'pack') bytes = read
  else {
    const text = Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString('latin1')
    const decoded = Buffer.from(text, 'base64')
    const skip = value.offset - 3 * Math.floor(value.offset / 3)
    if (decoded.length < skip + value.length) throw invalid(span.read, 'the text there is not base64')
    bytes = decoded.subarray(skip, skip + value.length)
  }
  assertRecordBytes(span.read, bytes)
  return Uint8Array.from(bytes)
}

function assertRecordBytes (read: LocatedRead, bytes: Uint8Array): void {
  const part = recordPartOf(bytes)
  if (part === undefined) throw invalid(read, 'the bytes there are not a signed record')
  const actual = cidString(cidOfBytesNative(part))
  if (actual !== read.id) throw invalid(read, `the record there is ${actual}`)
}

function invalid (read: LocatedRead, why: string): IsnadError {
  const { value } = read
  const at = value.kind === 'inline' ? `the inline pack at byte ${value.base}, block at ${value.offset}` : `byte ${value.offset}`
  return new IsnadError('RECORD_LOCATION_INVALID',
    `record ${read.id} is not where the index locates it (${read.file}, ${at}, ${value.length} bytes): ${why}; the ledger changed under the index or is damaged: run \`isnad ledger verify\`, then \`isnad ledger reindex\``,
    { details: { id: read.id, file: read.file, offset: value.offset, length: value.length } })
}
