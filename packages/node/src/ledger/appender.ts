import { fdatasync, write } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { IsnadError } from '../errors/index.js'
import { LEDGER_FILE_MODE, MAX_FLUSH_BYTES, MAX_LINE_BYTES } from './constants.js'
import { ioError, openForAppend } from '../fs/index.js'

/**
 * The durable JSONL appender behind every ledger file (streams, bus, views, coordination,
 * governance; spec §2, §9). A line is acknowledged (its promise resolves) only after the write that
 * carries it and an fdatasync of the file have both completed (docs/architecture.md, "The data directory").
 *
 * Group commit: at most one write+fdatasync is in flight per file. Lines appended meanwhile queue up
 * and all go out in the next single write+fdatasync (up to MAX_FLUSH_BYTES), so the cost of a sync is
 * shared by every caller that arrived during the previous one. A single caller gains nothing; many
 * concurrent callers (or one caller passing many lines) approach the disk's sequential bandwidth.
 *
 * After a failed write or fdatasync the appender refuses everything: on Linux a failed fsync may
 * have dropped the dirty pages and a retry would report success for data that is gone
 * ("fsyncgate", PostgreSQL 2018), so the only honest state is failed until reopened, where recovery
 * checks the tail.
 */

export interface AppenderStats {
  /** write(2) calls that carried at least one line. */
  writes: number
  /** fdatasync(2) calls; with group commit, fewer than lines. */
  syncs: number
  lines: number
  bytes: number
}

export interface AppenderInit {
  /** @default LEDGER_FILE_MODE */
  mode?: number
  /** @default MAX_LINE_BYTES */
  maxLineBytes?: number
  /** @default MAX_FLUSH_BYTES */
  maxFlushBytes?: number
}

interface Waiter {
  /** With the file offset the call's first line was written at. */
  resolve: (offset: number) => void
  reject: (err: Error) => void
  /** Set when the call's first chunk is written: the file's size before it. */
  offset: number
}

/**
 * Lines of one append call, already encoded: each ends in a newline. A call's lines are split into
 * chunks of at most maxFlushBytes (or one longer line), so a write never exceeds maxFlushBytes plus
 * one line (what recovery's MAX_TORN_TAIL_BYTES assumes).
 */
interface QueuedChunk {
  bytes: Buffer
  lines: number
  /** Set on the last chunk of one append call: resolved when that chunk is durable. */
  waiter: Waiter | undefined
  /** The call's waiter, on its first chunk: told the offset the chunk is written at. */
  first?: Waiter
}

const NEWLINE = 0x0a

export class JsonlAppender {
  readonly path: string
  readonly stats: AppenderStats = { writes: 0, syncs: 0, lines: 0, bytes: 0 }
  private readonly maxLineBytes: number
  private readonly maxFlushBytes: number
  private handle: FileHandle | undefined
  private readonly opened: Promise<void>
  private queue: QueuedChunk[] = []
  private flushing: Promise<void> | undefined
  private failure: IsnadError | undefined
  private closed = false
  private durable = 0

  /** Opens (creating if needed) eagerly; failures surface on the first append or `ready()`. */
  constructor (path: string, init: AppenderInit = {}) {
    this.path = path
    this.maxLineBytes = init.maxLineBytes ?? MAX_LINE_BYTES
    this.maxFlushBytes = init.maxFlushBytes ?? MAX_FLUSH_BYTES
    this.opened = this.open(init.mode ?? LEDGER_FILE_MODE)
  }

  private async open (mode: number): Promise<void> {
    try {
      const { handle } = await openForAppend(this.path, mode)
      try {
        this.durable = (await handle.stat()).size
      } catch (err) {
        await handle.close().catch(() => {})
        throw err
      }
      this.handle = handle // only now: durableBytes must never report a size before it is known
    } catch (err) {
      this.fail(ioError('open', this.path, err))
    }
  }

  /** Resolves once the file is open; rejects if opening failed. */
  async ready (): Promise<void> {
    await this.opened
    if (this.failure !== undefined) throw this.failure
  }

  /**
   * Bytes of the file known durable: everything before this offset is complete lines that have been
   * fdatasynced. A reader of a file that is being appended reads up to here and no further.
   */
  async durableSize (): Promise<number> {
    await this.ready()
    return this.durable
  }

  /** durableSize without waiting: undefined until the file is open (nothing of ours is in it yet). */
  get durableBytes (): number | undefined {
    return this.handle === undefined ? undefined : this.durable
  }

  /** True when nothing is queued or in flight, so closing cannot delay anyone. */
  get idle (): boolean {
    return this.queue.length === 0 && this.flushing === undefined
  }

  /**
   * Appends `lines` (each one JSON text without a newline); resolves once all of them are durable.
   * Not an async function: on the group-commit hot path every extra promise layer is a microtask
   * hop per caller.
   */
  append (lines: readonly string[]): Promise<number> {
    const refused = this.refusal()
    if (refused !== undefined) return refused
    if (lines.length === 0) return Promise.resolve(this.durable)
    let total = 0
    for (const line of lines) {
      const bytes = Buffer.byteLength(line, 'utf8') + 1
      if (bytes > this.maxLineBytes) return this.tooLarge(bytes)
      if (line.includes('\n')) return Promise.reject(new IsnadError('USAGE', `a ledger line must not contain a newline (${this.path})`))
      total += bytes
    }
    // Written straight from the strings into one buffer: no joined copy of the lines.
    const bytes = Buffer.allocUnsafe(total)
    let at = 0
    for (const line of lines) {
      at += bytes.write(line, at, 'utf8')
      bytes[at++] = NEWLINE
    }
    // Within maxFlushBytes (the usual case) the lines are one chunk, with nothing to scan for.
    return total <= this.maxFlushBytes ? this.enqueue([{ bytes, lines: lines.length, waiter: undefined }]) : this.enqueueLines(bytes)
  }

  /**
   * Appends lines the caller has encoded itself (the event ledger writes its lines straight into
   * one buffer): `bytes` is whole lines, each ending in a newline. The framing is checked as
   * `append` checks it (every line within maxLineBytes, the last one terminated); the content is the
   * caller's, as the text of `append`'s lines is. Resolves once all of them are durable, with the
   * file offset of their first byte (this appender is the file's only writer: the lines of one call
   * are contiguous), which the journal turns into records' locations. The caller must not change
   * `bytes` afterwards.
   */
  appendEncoded (bytes: Buffer): Promise<number> {
    const refused = this.refusal()
    if (refused !== undefined) return refused
    if (bytes.length === 0) return Promise.resolve(this.durable)
    if (bytes[bytes.length - 1] !== NEWLINE) return Promise.reject(new IsnadError('USAGE', `encoded ledger lines must end with a newline (${this.path})`))
    return this.enqueueLines(bytes)
  }

  /**
   * Queues `bytes` (whole lines, the last one terminated) in chunks of at most maxFlushBytes, each
   * ending before the line that would take it past that (a chunk holds at least one line); refuses
   * them all if a line is over maxLineBytes.
   */
  private enqueueLines (bytes: Buffer): Promise<number> {
    const chunks: QueuedChunk[] = []
    let chunkStart = 0
    let lines = 0
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(NEWLINE, start) + 1
      if (end - start > this.maxLineBytes) return this.tooLarge(end - start)
      if (end - chunkStart > this.maxFlushBytes && lines > 0) {
        chunks.push({ bytes: bytes.subarray(chunkStart, start), lines, waiter: undefined })
        chunkStart = start
        lines = 0
      }
      lines++
      start = end
    }
    chunks.push({ bytes: chunkStart === 0 ? bytes : bytes.subarray(chunkStart), lines, waiter: undefined })
    return this.enqueue(chunks)
  }

  /** The rejection an append gets from a failed or closed appender. */
  private refusal (): Promise<never> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    if (this.closed) return Promise.reject(new IsnadError('STORE_CLOSED', `ledger file ${this.path} is closed`))
    return undefined
  }

  private tooLarge (bytes: number): Promise<never> {
    return Promise.reject(new IsnadError('RECORD_TOO_LARGE', `a line of ${bytes} bytes exceeds ${this.maxLineBytes} bytes for ${this.path}`, { details: { file: this.path, bytes } }))
  }

  /** Queues one call's chunks; the promise resolves when the last of them is durable. */
  private enqueue (chunks: QueuedChunk[]): Promise<number> {
    const done = new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, offset: -1 }
      ;(chunks[chunks.length - 1] as QueuedChunk).waiter = waiter
      ;(chunks[0] as QueuedChunk).first = waiter
    })
    for (const chunk of chunks) this.queue.push(chunk)
    this.flushing ??= this.flushLoop()
    return done
  }

  /** JSON-encodes `objects` and appends them. */
  async appendObjects (objects: readonly object[]): Promise<void> {
    await this.append(objects.map((o) => JSON.stringify(o)))
  }

  private async flushLoop (): Promise<void> {
    // Runs after the caller's synchronous code, so appends issued in the same tick share the first sync.
    await this.opened
    let batch: QueuedChunk[] = []
    try {
      while (this.queue.length > 0 && this.failure === undefined) {
        const handle = this.handle
        if (handle === undefined) throw new IsnadError('IO_ERROR', `${this.path} is not open`)
        batch = this.takeBatch()
        const buffer = batch.length === 1 ? (batch[0] as QueuedChunk).bytes : Buffer.concat(batch.map((chunk) => chunk.bytes))
        let at = this.durable
        for (const chunk of batch) {
          if (chunk.first !== undefined) chunk.first.offset = at
          at += chunk.bytes.length
        }
        // The descriptor through the callback API: FileHandle's promise methods cost about twice the
        // main-thread time per call (each store pays several of these syncs). close() waits for this loop.
        await writeAll(handle.fd, buffer)
        this.stats.writes++
        await datasync(handle.fd)
        this.stats.syncs++
        for (const chunk of batch) this.stats.lines += chunk.lines
        this.stats.bytes += buffer.length
        this.durable += buffer.length
        for (const chunk of batch) chunk.waiter?.resolve(chunk.waiter.offset)
        batch = []
      }
    } catch (err) {
      const failure = ioError('append to', this.path, err)
      this.fail(failure)
      for (const chunk of batch) chunk.waiter?.reject(failure)
    } finally {
      this.flushing = undefined
    }
  }

  /** The oldest queued chunks up to maxFlushBytes (at least one chunk), removed from the queue. */
  private takeBatch (): QueuedChunk[] {
    let bytes = 0
    let n = 0
    while (n < this.queue.length && (n === 0 || bytes + (this.queue[n] as QueuedChunk).bytes.length <= this.maxFlushBytes)) {
      bytes += (this.queue[n] as QueuedChunk).bytes.length
      n++
    }
    return this.queue.splice(0, n)
  }

  private fail (err: IsnadError): void {
    this.failure ??= err
    this.rejectQueued(this.failure)
  }

  private rejectQueued (err: IsnadError): void {
    const queued = this.queue
    this.queue = []
    for (const chunk of queued) chunk.waiter?.reject(err)
  }

  /** Waits for queued lines to become durable, then closes the file. Idempotent. */
  async close (): Promise<void> {
    this.closed = true
    await this.opened
    while (this.flushing !== undefined) await this.flushing
    const handle = this.handle
    this.handle = undefined
    await handle?.close()
  }
}

async function writeAll (fd: number, buffer: Buffer): Promise<void> {
  let offset = 0
  // A regular file may take fewer bytes than asked (a signal, a full disk); O_APPEND keeps the rest
  // contiguous because this appender is the file's only writer.
  while (offset < buffer.length) {
    const bytesWritten = await writeSome(fd, buffer, offset)
    if (bytesWritten === 0) throw new IsnadError('IO_ERROR', 'write made no progress')
    offset += bytesWritten
  }
}

function writeSome (fd: number, buffer: Buffer, offset: number): Promise<number> {
  return new Promise((resolve, reject) => {
    write(fd, buffer, offset, buffer.length - offset, null, (err, written) => { if (err === null) resolve(written); else reject(err) })
  })
}

function datasync (fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fdatasync(fd, (err) => { if (err === null) resolve(); else reject(err) })
  })
}
