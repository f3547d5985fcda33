import { availableParallelism } from 'node:os'
import type { RecordBytesVerdict } from '../record/index.js'
import { RECORD_KINDS, type RecordKind } from '../schema/index.js'
import { runningThreads, send } from './verify-threads.js'

/*
 * verifyBytesElsewhere of the node's record fast paths: once the verifier threads
 * run (verify-threads.ts; the first burst of signature checks starts them), received record bytes
 * go to them whole. A thread runs every step of verifyRecordBytes (decode, schema, canonical form,
 * size, kind, id, signer key, signature, freshness) and answers with the id, the CID's digest and
 * the decoded record, or the error; this thread only copies the bytes in and turns the answer into
 * the result. Measured: ~80 µs less of this thread's CPU per record (BENCHMARKS.md).
 *
 * Only where there are cores to spare (RECORD_THREADS_MIN_CPUS): the threads spend more CPU on a
 * record than this thread saves, so on a machine with few cores the hand-off costs more than it
 * gives, and there only the signatures go to the threads.
 */

/**
 * @default 4 — CPUs (os.availableParallelism) from which received records are verified whole on the
 * verifier threads. Measured on 2 vCPUs (BENCHMARKS.md, "Sync catch-up": CPU per record by thread): in a
 * sync catch-up the threads spent ~135 µs more CPU per record than the ~50 µs the event loop saved,
 * and V8's helper threads ~50 µs more compiling the same code for two more isolates: 18% more CPU
 * in all, and slower whenever the cores were shared. With 4 or more the event loop's saving is
 * what counts: it runs every other step of a batch alone.
 */
export const RECORD_THREADS_MIN_CPUS = 4

let recordThreads = availableParallelism() >= RECORD_THREADS_MIN_CPUS

/**
 * Turns whole-record verification on the verifier threads on or off for this process (the default
 * follows RECORD_THREADS_MIN_CPUS); returns the setting it replaces. For tests and benchmarks,
 * which compare both ways on any machine.
 */
export function useRecordThreads (enabled: boolean): boolean {
  const was = recordThreads
  recordThreads = enabled
  return was
}

/** @default 32 — records per message to a thread. */
export const RECORD_THREAD_CHUNK = 32

/** @default 32768 — bytes of a chunk's buffer; a larger record gets a chunk of its own size. */
const RECORD_CHUNK_BYTES = 32 * 1024

/*
 * A chunk's records back to back, each after a header: length (4 bytes, little-endian), the
 * expected kind (1 byte: 0 for any, else 1 + its index in RECORD_KINDS) and the verifier's clock
 * (8 bytes, a little-endian float64). verify-thread.ts reads them with readRecordChunk.
 */
const RECORD_HEADER_BYTES = 13

interface RecordChunk {
  packed: Uint8Array<ArrayBuffer>
  view: DataView
  used: number
  waiting: Array<(verdict: RecordBytesVerdict | undefined) => void>
}

let chunks: RecordChunk[] = []
let flushScheduled = false

function newChunk (room: number): RecordChunk {
  const packed = new Uint8Array(Math.max(RECORD_CHUNK_BYTES, room))
  return { packed, view: new DataView(packed.buffer), used: 0, waiting: [] }
}

/**
 * The record's verdict from a verifier thread, or undefined when no thread runs (the caller verifies
 * here, and its signature checks start the threads) or whole records do not go to them (useRecordThreads). The bytes are copied before this returns. A
 * promise of undefined means the thread died first: the caller verifies here after all.
 */
export function verifyBytesOnThreads (bytes: Uint8Array, now: number, expectedKind: RecordKind | undefined): Promise<RecordBytesVerdict | undefined> | undefined {
  if (!recordThreads || runningThreads() === undefined) return undefined
  const size = RECORD_HEADER_BYTES + bytes.length
  let chunk = chunks[chunks.length - 1]
  if (chunk === undefined || chunk.waiting.length >= RECORD_THREAD_CHUNK || chunk.used + size > chunk.packed.length) {
    chunk = newChunk(size)
    chunks.push(chunk)
  }
  const at = chunk.used
  chunk.view.setUint32(at, bytes.length, true)
  chunk.packed[at + 4] = expectedKind === undefined ? 0 : 1 + RECORD_KINDS.indexOf(expectedKind)
  chunk.view.setFloat64(at + 5, now, true)
  chunk.packed.set(bytes, at + RECORD_HEADER_BYTES)
  chunk.used += size
  const waiting = chunk.waiting
  const verdict = new Promise<RecordBytesVerdict | undefined>((resolve) => { waiting.push(resolve) })
  if (!flushScheduled) {
    flushScheduled = true
    setImmediate(flush)
  }
  return verdict
}

function flush (): void {
  flushScheduled = false
  const ready = chunks
  chunks = []
  const threads = runningThreads()
  for (const chunk of ready) {
    const { waiting } = chunk
    if (threads === undefined) {
      for (const resolve of waiting) resolve(undefined)
      continue
    }
    // Transferred, not copied (a clone of a view copies its whole buffer): should the thread die,
    // the callers verify their own copies of the bytes here (retry).
    send(threads, (id) => ({ kind: 'records', id, packed: chunk.packed.subarray(0, chunk.used), count: waiting.length }), {
      count: waiting.length,
      settle: (answer) => {
        if ('records' in answer) waiting.forEach((resolve, i) => { resolve(answer.records[i]) })
      },
      retry: () => { for (const resolve of waiting) resolve(undefined) }
    }, [chunk.packed.buffer])
  }
}

/** One record of a chunk as verify-thread.ts reads it. */
export interface PackedRecord {
  bytes: Uint8Array
  now: number
  expectedKind: RecordKind | undefined
}

/** The records of a chunk packed by verifyBytesOnThreads (views into `packed`). */
export function readRecordChunk (packed: Uint8Array, count: number): PackedRecord[] {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength)
  const records: PackedRecord[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(at, true)
    const kind = packed[at + 4] ?? 0
    const now = view.getFloat64(at + 5, true)
    records.push({ bytes: packed.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + length), now, expectedKind: kind === 0 ? undefined : RECORD_KINDS[kind - 1] })
    at += RECORD_HEADER_BYTES + length
  }
  return records
}
