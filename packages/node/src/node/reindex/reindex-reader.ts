import type { Worker } from 'node:worker_threads'
import { IsnadError } from '../../errors/index.js'
import { startModuleWorker } from '../../fast-crypto/index.js'
import { decodeChunk, errorOfWire, type ReadChunk, type ReaderInput, type ReaderMessage, type RebuildMessage } from './reindex-chunks.js'

/**
 * @default 192 — MiB of young generation for the reader thread: it allocates a great deal that dies
 * young (parsed lines, zod's copies, CBOR tokens), and a larger nursery scavenges less often (the
 * reader alone used a little less CPU with 192 than with 16 or 64, alternating runs of 100k events).
 */
export const READER_YOUNG_GENERATION_MB = 192

type Arrival = ReaderMessage | { kind: 'crashed', error: Error }

/**
 * The reader thread of a rebuild (reindex-worker.ts running readForReindex). Started first, so it
 * loads its modules while the rebuild opens its stores; `read` then yields its chunks while the
 * caller writes. An error of the reader (a corrupt line, a record whose id is not its CID) is thrown
 * by `read` as it would have been thrown in this thread.
 */
export class ReindexReader {
  private readonly inbox = new Inbox<Arrival>()
  private started = false

  private constructor (private readonly worker: Worker) {
    worker.on('message', (message: ReaderMessage) => { this.inbox.put(message) })
    worker.on('error', (cause) => { this.inbox.put({ kind: 'crashed', error: new IsnadError('IO_ERROR', `the reindex reader thread failed: ${cause.message}`, { cause }) }) })
    // After 'done' or 'failed' (which arrive first) nobody listens any more.
    worker.on('exit', (code) => { this.inbox.put({ kind: 'crashed', error: new IsnadError('IO_ERROR', `the reindex reader thread exited (code ${code}) before the end of the ledger`) }) })
  }

  static start (): ReindexReader {
    return new ReindexReader(startModuleWorker(new URL('./reindex-worker.js', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB }
    }))
  }

  async * read (input: ReaderInput): AsyncGenerator<ReadChunk> {
    if (this.started) throw new IsnadError('USAGE', 'a ReindexReader reads one ledger, once')
    this.started = true
    this.post({ kind: 'read', input })
    try {
      for (;;) {
        const message = await this.inbox.take()
        if (message.kind === 'done') return
        if (message.kind === 'failed') throw errorOfWire(message.error)
        if (message.kind === 'crashed') throw message.error
        this.post({ kind: 'taken' })
        yield decodeChunk(message)
      }
    } finally {
      await this.stop()
    }
  }

  /** Ends the thread (done or not): the rebuild failed, or no longer needs it. */
  async stop (): Promise<void> {
    await this.worker.terminate()
  }

  private post (message: RebuildMessage): void {
    this.worker.postMessage(message)
  }
}

/** A queue whose take waits for the next put. */
class Inbox<T> {
  private readonly items: T[] = []
  private waiting: ((item: T) => void) | undefined

  put (item: T): void {
    const waiting = this.waiting
    this.waiting = undefined
    if (waiting !== undefined) waiting(item)
    else this.items.push(item)
  }

  async take (): Promise<T> {
    if (this.items.length > 0) return this.items.shift() as T
    return await new Promise<T>((resolve) => { this.waiting = resolve })
  }
}
