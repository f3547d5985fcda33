import { verify as opensslVerify, type KeyObject } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { RecordBytesVerdict } from '../record/index.js'
import { startModuleWorker } from './module-worker.js'
import { sodiumModulePath } from './sodium.js'

/*
 * Where nodeCryptoVerifier.verifyAsync checks signatures once the policy checks have passed on the
 * calling thread. The first burst of checks (a batch being ingested) starts a few threads of this
 * process that check signatures back to back (libsodium, then OpenSSL for what it refuses, as the
 * synchronous form does), and every check goes to them once they have said they are ready; until
 * then, checks go to node:crypto's callback form, on libuv's thread pool. Nothing waits for a thread
 * to start: a start takes ~100 ms quiet and far more on a loaded machine, and a burst held behind
 * it was late at every node of the process (figure 8a's p99). Why not always the pool: LevelDB runs its
 * reads and writes there too, and the pool serves requests in arrival order, so every store read
 * or batch write of an ingest waited behind the ~64 signature checks queued ahead of it (several
 * milliseconds each time), and the store's turn ended only when the next batch's signatures were
 * all checked. On their own threads, checks never stand in front of the store's I/O.
 */

/** @default 4 — verifier threads at most; fewer on a machine with fewer cores (one per core). */
export const MAX_VERIFY_THREADS = 4

/**
 * @default 16 — checks gathered within one turn of the event loop that start the threads; fewer
 * go to libuv's pool while no thread runs, so a process that checks a signature now and then
 * never starts one.
 */
export const VERIFY_THREADS_MIN_BURST = 16

/** @default 16 — checks per message to a thread: about 2 ms of work, so results flow back steadily. */
export const VERIFY_THREAD_CHUNK = 16

/** One signature waiting for its verdict, its inputs copied into a chunk (see Chunk). */
interface PendingCheck {
  /** The KeyObject of the public key, for the libuv path. */
  key: KeyObject
  resolve: (valid: boolean) => void
}

/*
 * Checks as sent to a thread, copied when they are queued (the caller may reuse its buffers once
 * the call returns, as with node:crypto), back to back in one buffer per chunk: message length (4
 * bytes, little-endian), signature (64), public key (32), message. A thread's verdicts come back as
 * one byte per check.
 */
const HEADER_BYTES = 4
const SIGNATURE_BYTES = 64
const PUBLIC_KEY_BYTES = 32
const FIXED_BYTES = HEADER_BYTES + SIGNATURE_BYTES + PUBLIC_KEY_BYTES
/** Room for a chunk of checks of signing inputs up to 156 bytes (a record's are ~60). */
const CHUNK_BYTES = VERIFY_THREAD_CHUNK * (FIXED_BYTES + 156)

interface Chunk {
  packed: Uint8Array
  /** Bytes of `packed` in use. */
  used: number
  checks: PendingCheck[]
}

function newChunk (room: number): Chunk {
  return { packed: new Uint8Array(Math.max(CHUNK_BYTES, room)), used: 0, checks: [] }
}

/** How a chunk's checks are laid out, sent to each thread with its start (verify-thread.ts reads it). */
export interface PackedLayout {
  headerBytes: number
  signatureBytes: number
  fixedBytes: number
}

/** What a verifier thread is started with. */
export interface VerifierThreadData {
  /** sodium-native's resolved path (sodium.ts), or undefined to check with OpenSSL alone. */
  sodiumPath: string | undefined
  layout: PackedLayout
}

/**
 * A chunk sent to a thread: `count` signature checks packed back to back, or `count` records to
 * verify whole (record-threads.ts packs them).
 */
export type ThreadRequest =
  | { kind: 'signatures', id: number, packed: Uint8Array, count: number }
  | { kind: 'records', id: number, packed: Uint8Array, count: number }

/** A thread's answer to one request: a verdict byte per signature, or a verdict per record. */
export type ThreadAnswer = { id: number, verdicts: Uint8Array } | { id: number, records: Array<RecordBytesVerdict | undefined> }

/** What a thread posts: once, the library it checks with, then the answer to each request. */
export type ThreadReply = { backend: 'libsodium' | 'openssl' } | ThreadAnswer

const LAYOUT: PackedLayout = { headerBytes: HEADER_BYTES, signatureBytes: SIGNATURE_BYTES, fixedBytes: FIXED_BYTES }

/**
 * A verifier thread. Its module is compiled by tsc beside this one (dist/src/fast-crypto/verify-thread.js);
 * when the sources run as they are (vitest), startModuleWorker starts the .ts file with the
 * test's source hooks, so the thread runs the same record code as its caller.
 */
function startWorker (workerData: VerifierThreadData): Worker {
  return startModuleWorker(new URL('./verify-thread.js', import.meta.url), { workerData })
}

/**
 * A request on a thread not answered yet: how many checks it holds, what its answer does, and how
 * its checks are done elsewhere should the thread die (no verdict is ever lost).
 */
export interface InFlight {
  count: number
  settle: (answer: ThreadAnswer) => void
  retry: () => void
}

export interface VerifierThread {
  worker: Worker
  /** Requests sent and not answered, by request id. */
  inFlight: Map<number, InFlight>
  /** Checks in flight. */
  load: number
}

/** The threads of this process, started by the first burst; 'failed' once one of them died. */
let threads: VerifierThread[] | null | 'failed' = null
/** Chunks filled since the last flush; the last one takes new checks. */
let chunks: Chunk[] = []
let flushScheduled = false
let nextRequest = 0

/** The library each running thread reported it checks signatures with, in the order they started. */
const threadBackends: Array<'libsodium' | 'openssl'> = []
/**
 * The threads that have said hello (their library): their module has loaded, so checks sent to them
 * no longer wait for a start. Emptied when one dies.
 */
const readyThreads: VerifierThread[] = []

/** What the verifier threads that have reported check signatures with first ('libsodium' or 'openssl'). */
export function verifierThreadBackends (): ReadonlyArray<'libsodium' | 'openssl'> {
  return threadBackends
}

/** How many verifier threads of this process are ready for checks (0 until the first has started after the first burst, and after one died). */
export function runningVerifierThreads (): number {
  return runningThreads()?.length ?? 0
}

/**
 * Queues a check whose policy checks passed (lengths included), copying its inputs; its verdict
 * arrives through `resolve`. Checks queued in one turn of the event loop are dispatched together
 * at its end.
 */
export function checkSoon (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, key: KeyObject, resolve: (valid: boolean) => void): void {
  const size = FIXED_BYTES + message.length
  let chunk = chunks[chunks.length - 1]
  if (chunk === undefined || chunk.checks.length >= VERIFY_THREAD_CHUNK || chunk.used + size > chunk.packed.length) {
    chunk = newChunk(size)
    chunks.push(chunk)
  }
  const { packed, used: at } = chunk
  const length = message.length
  packed[at] = length & 0xff
  packed[at + 1] = (length >>> 8) & 0xff
  packed[at + 2] = (length >>> 16) & 0xff
  packed[at + 3] = length >>> 24
  packed.set(signature, at + HEADER_BYTES)
  packed.set(publicKey, at + HEADER_BYTES + SIGNATURE_BYTES)
  packed.set(message, at + FIXED_BYTES)
  chunk.used += size
  chunk.checks.push({ key, resolve })
  if (flushScheduled) return
  flushScheduled = true
  setImmediate(flush)
}

function flush (): void {
  flushScheduled = false
  const ready = chunks
  chunks = []
  if (threads === null && ready.reduce((n, chunk) => n + chunk.checks.length, 0) >= VERIFY_THREADS_MIN_BURST) threads = startThreads()
  const running = runningThreads()
  for (const chunk of ready) {
    if (running !== undefined) sendSignatures(running, chunk)
    else checkOnLibuv(chunk)
  }
}

/** The threads that are ready for checks, or undefined before the first has started and after one died. */
export function runningThreads (): readonly VerifierThread[] | undefined {
  return Array.isArray(threads) && readyThreads.length > 0 ? readyThreads : undefined
}

/** node:crypto's callback form: OpenSSL on libuv's thread pool, for every check of a chunk. */
function checkOnLibuv ({ packed, checks }: Chunk): void {
  const view = new DataView(packed.buffer, packed.byteOffset)
  let at = 0
  for (const { key, resolve } of checks) {
    const length = view.getUint32(at, true)
    const signature = packed.subarray(at + HEADER_BYTES, at + HEADER_BYTES + SIGNATURE_BYTES)
    const message = packed.subarray(at + FIXED_BYTES, at + FIXED_BYTES + length)
    at += FIXED_BYTES + length
    try {
      opensslVerify(null, message, key, signature, (err, valid) => { resolve(err === null && valid) })
    } catch {
      resolve(false)
    }
  }
}

function startThreads (): VerifierThread[] | 'failed' {
  const started: VerifierThread[] = []
  try {
    for (let i = 0; i < Math.min(MAX_VERIFY_THREADS, availableParallelism()); i++) {
      const worker = startWorker({ sodiumPath: sodiumModulePath, layout: LAYOUT })
      const thread: VerifierThread = { worker, inFlight: new Map(), load: 0 }
      worker.on('message', (reply: ThreadReply) => {
        if ('backend' in reply) {
          threadBackends.push(reply.backend)
          readyThreads.push(thread)
        } else settle(thread, reply)
      })
      worker.on('error', () => { fail(started) })
      worker.on('exit', () => { fail(started) })
      // An idle thread does not keep the process alive; one with checks in flight does (send).
      worker.unref()
      started.push(thread)
    }
  } catch {
    fail(started)
    return 'failed'
  }
  return started
}

function sendSignatures (all: readonly VerifierThread[], chunk: Chunk): void {
  const count = chunk.checks.length
  // Copied, not transferred: should the thread die, the checks are still here to run on libuv.
  send(all, (id) => ({ kind: 'signatures', id, packed: chunk.packed.subarray(0, chunk.used), count }), {
    count,
    settle: (answer) => {
      if (!('verdicts' in answer)) return
      chunk.checks.forEach(({ resolve }, i) => { resolve(answer.verdicts[i] === 1) })
    },
    retry: () => { checkOnLibuv(chunk) }
  })
}

/** Sends a request to the least loaded thread; `transfer` lists buffers handed over rather than copied. */
export function send (all: readonly VerifierThread[], request: (id: number) => ThreadRequest, inFlight: InFlight, transfer: ArrayBuffer[] = []): void {
  let thread = all[0] as VerifierThread
  for (const other of all) if (other.load < thread.load) thread = other
  const id = nextRequest++
  thread.inFlight.set(id, inFlight)
  thread.load += inFlight.count
  thread.worker.ref()
  thread.worker.postMessage(request(id), transfer)
}

function settle (thread: VerifierThread, answer: ThreadAnswer): void {
  const inFlight = thread.inFlight.get(answer.id)
  if (inFlight === undefined) return
  thread.inFlight.delete(answer.id)
  thread.load -= inFlight.count
  if (thread.inFlight.size === 0) thread.worker.unref()
  inFlight.settle(answer)
}

/**
 * A thread that dies (or cannot start) ends the threads for this process: every check still in
 * flight is checked again on libuv's pool, and so are all later ones. No verdict is ever lost.
 */
function fail (started: VerifierThread[]): void {
  if (threads === 'failed') return
  threads = 'failed'
  threadBackends.length = 0
  readyThreads.length = 0
  for (const thread of started) {
    const pending = [...thread.inFlight.values()]
    thread.inFlight.clear()
    thread.load = 0
    thread.worker.removeAllListeners()
    thread.worker.on('error', () => {})
    void thread.worker.terminate()
    for (const inFlight of pending) inFlight.retry()
  }
}
