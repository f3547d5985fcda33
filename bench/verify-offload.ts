import * as dagCbor from '@ipld/dag-cbor'
import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { CID } from 'multiformats/cid'
import { nodeCryptoVerifier } from '../src/native/index.js'
import { verifyRecordBytesAsync, type VerifiedRecord } from '../src/record/index.js'
import type { SignedRecord } from '../src/schema/index.js'
import { createAttestationWorkload } from './ingest.js'
import { median } from './stats.js'
import type { OffloadRequest, OffloadResult } from './verify-offload-worker.js'

/*
 * Issue 20 item 4, a prototype measured before anything is built into src/: figure 8c's 3,000
 * records (canonical bytes) verified
 * - `today`: verifyRecordBytesAsync on this thread (decode, schema, canonical form, id, key) with the
 *   signatures on nodeCryptoVerifier's verifier threads, 64 in flight (the pipeline's and the
 *   gate's concurrency);
 * - `threads, clone`: raw bytes to as many threads as cores, in chunks, every step there, the
 *   decoded record back by structured clone;
 * - `threads, re-decode`: the same, with only the id back and the record decoded again here
 *   (DAG-CBOR only: the thread checked the schema).
 * Per variant: wall ms for the 3,000 and this thread's CPU µs per record, median of interleaved passes.
 *
 *   npm run build && node dist/bench/verify-offload.js [--passes=7] [--chunk=64]
 */

const arg = (name: string, fallback: string): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const PASSES = arg('passes', '7')
const CHUNK = arg('chunk', '64')
const THREADS = Math.min(4, availableParallelism())

const workload = createAttestationWorkload({ memories: 1000, witnessesPerMemory: 2 })
const records = [...workload.memories, ...workload.attestations]

async function today (now: number): Promise<VerifiedRecord[]> {
  const out = new Array<VerifiedRecord>(records.length)
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < records.length) {
      const i = next++
      out[i] = await verifyRecordBytesAsync(records[i] as Uint8Array, { verifier: nodeCryptoVerifier, now })
    }
  }
  await Promise.all(Array.from({ length: 64 }, lane))
  return out
}

const workers = Array.from({ length: THREADS }, () => new Worker(new URL('./verify-offload-worker.js', import.meta.url)))
const waiting = new Map<number, (results: OffloadResult[]) => void>()
for (const worker of workers) worker.on('message', ({ id, results }: { id: number, results: OffloadResult[] }) => waiting.get(id)?.(results))
let nextRequest = 0

async function offloaded (now: number, clone: boolean): Promise<VerifiedRecord[]> {
  const chunks: Array<Promise<VerifiedRecord[]>> = []
  for (let at = 0; at < records.length; at += CHUNK) {
    const slice = records.slice(at, at + CHUNK)
    const id = nextRequest++
    const request: OffloadRequest = { id, now, records: slice, clone }
    chunks.push(new Promise<OffloadResult[]>((resolve) => {
      waiting.set(id, resolve)
      ;(workers[id % THREADS] as Worker).postMessage(request)
    }).then((results) => {
      waiting.delete(id)
      return results.map((result, i) => {
        if ('code' in result) throw new Error(`${result.code}: ${result.message}`)
        const bytes = slice[i] as Uint8Array
        const signed = (clone ? result.signed : dagCbor.decode(bytes)) as SignedRecord
        return { id: result.id, cid: CID.decode(result.cid), signed, bytes }
      })
    }))
  }
  return (await Promise.all(chunks)).flat()
}

const variants: Record<string, (now: number) => Promise<VerifiedRecord[]>> = {
  today,
  'threads, clone': async (now) => await offloaded(now, true),
  'threads, re-decode': async (now) => await offloaded(now, false)
}
const wall: Record<string, number[]> = {}
const cpu: Record<string, number[]> = {}
for (let pass = 0; pass <= PASSES; pass++) {
  for (const [name, run] of Object.entries(variants)) {
    const now = Date.now()
    const start = performance.now()
    const thread = process.threadCpuUsage()
    const verified = await run(now)
    const { user, system } = process.threadCpuUsage(thread)
    const ms = performance.now() - start
    if (verified.length !== records.length || verified.some((v, i) => v.bytes.length !== (records[i] as Uint8Array).length)) throw new Error(`${name}: wrong results`)
    if (pass === 0) continue // warm-up: JIT, threads started
    ;(wall[name] ??= []).push(ms)
    ;(cpu[name] ??= []).push((user + system) / records.length)
  }
}
for (const worker of workers) await worker.terminate()
const summary = Object.fromEntries(Object.keys(variants).map((name) => [name, {
  wallMs: Number(median(wall[name] ?? []).toFixed(1)),
  recordsPerSecond: Math.round(records.length / (median(wall[name] ?? []) / 1000)),
  mainThreadMicrosPerRecord: Number(median(cpu[name] ?? []).toFixed(1))
}]))
process.stdout.write(`${JSON.stringify({ records: records.length, threads: THREADS, chunk: CHUNK, passes: PASSES, summary, wall, cpu }, null, 2)}\n`)
