import { readdirSync, readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { useRecordThreads } from '../src/fast-crypto/index.js'
import { createWorkload } from './network-sync.js'
import { countRecords, startSyncNode } from './network-sync-node.js'
import type { StartedPeer, SyncWorkerRequest } from './network-sync-worker.js'
import { NodeThread } from './node-threads.js'

/*
 * Where the CPU of a sync catch-up goes, thread by thread, and how long the threads
 * waited for a CPU (figure 8c's workload: 1,000 memories + 2,000 attestations; A on a thread of
 * its own, B on this one). Each round reads every thread's CPU ticks (/proc/self/task/<tid>/stat)
 * and its schedstat (ns on a CPU, ns runnable but waiting for one) before and after, and prints
 * them per received record by role: B's event loop, A's thread, V8's helper threads (JIT and GC,
 * the threads that exist before anything starts), libuv's pool, and the other threads (the
 * verifier threads, LevelDB's own). The wall time is noisy on a shared machine; the CPU per record
 * much less, and the wait says how much of the wall time was the machine's other jobs.
 * Linux only. Runs on any build with the same bench files (copied into an old one to compare).
 *
 *   npm run build && npx node dist/bench/sync-threads.js [--rounds=4] [--warmups=1] [--memories=1000] [--record-threads=on|off] [--windows]
 *
 * `--warmups` rounds run first and left out of the mean. V8 optimises a function once it has run
 * about 3,000 times (--invocation-count-for-turbofan), so in a short catch-up much of the code runs
 * unoptimised and V8's compiler threads are busy: a few more warm-up rounds measure a node that has
 * been running a while (its warm state), one measures a fresh process.
 * `--record-threads` overrides the machine's default (RECORD_THREADS_MIN_CPUS, src/native): whether
 * received records are verified whole on the verifier threads or only their signatures are.
 */

const TICK_US = 1_000_000 / 100 // USER_HZ is 100 on Linux

interface ThreadTimes { name: string, ticks: number, runNs: number, waitNs: number }

function readThreads (): Map<string, ThreadTimes> {
  const out = new Map<string, ThreadTimes>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const fields = stat.slice(close + 2).split(' ')
      const [runNs = 0, waitNs = 0] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number)
      out.set(tid, { name: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]), runNs, waitNs })
    } catch { /* the thread ended */ }
  }
  return out
}

const ROLES = ['B event loop', 'A thread', 'other threads (verifier, LevelDB)', 'V8 helpers (JIT, GC)', 'libuv pool'] as const
type Role = typeof ROLES[number]

function option (name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? fallback : Number(arg.slice(name.length + 3))
}

const rounds = option('rounds', 4)
const warmups = Math.max(1, option('warmups', 1))
/** `--windows`: each round's window on stderr in CLOCK_MONOTONIC seconds, to cut a `--cpu-prof` profile or a `perf -k mono` record to the catch-up alone. */
const WINDOWS = process.argv.includes('--windows')
const monotonic = (): string => (Number(process.hrtime.bigint()) / 1e9).toFixed(6)
const recordThreads = process.argv.find((a) => a.startsWith('--record-threads='))?.slice('--record-threads='.length)
if (recordThreads !== undefined) useRecordThreads(recordThreads === 'on')
const memories = option('memories', 1000)
const records = createWorkload({ memories, witnessesPerMemory: 2, rounds, warmups: 1, seed: 4, progress: () => {} })
const ownTid = String(process.pid)
const startupThreads = new Set(readThreads().keys())
const thread = new NodeThread<SyncWorkerRequest>(new URL('./network-sync-worker.js', import.meta.url))

function roleOf (tid: string, name: string, aTid: string | undefined): Role {
  if (tid === ownTid) return 'B event loop'
  if (tid === aTid) return 'A thread'
  if (name.startsWith('libuv')) return 'libuv pool'
  return startupThreads.has(tid) ? 'V8 helpers (JIT, GC)' : 'other threads (verifier, LevelDB)'
}

const totals = new Map<Role, number>()
let totalMs = 0
let totalWaitMs = 0
try {
  const a = await thread.request<StartedPeer>({ op: 'start', records })
  for (let round = 1 - warmups; round <= rounds; round++) {
    const b = await startSyncNode('sync-b')
    try {
      const before = readThreads()
      const from = monotonic()
      const start = performance.now()
      await b.network.dial(a.addr)
      const result = await b.network.sync(a.peerId)
      await b.node.journal.views.settled()
      const ms = performance.now() - start
      if (WINDOWS) process.stderr.write(`window ${from} ${monotonic()}\n`)
      const after = readThreads()
      const counts = await countRecords(b.node)
      if (result.accepted !== records.length || counts.total !== records.length) throw new Error(`B stored ${counts.total} of ${records.length}`)
      const cpu = new Map<Role, number>()
      let waitMs = 0
      for (const [tid, now] of after) {
        const was = before.get(tid)
        const role = roleOf(tid, now.name, a.tid)
        cpu.set(role, (cpu.get(role) ?? 0) + (now.ticks - (was?.ticks ?? 0)) * TICK_US / records.length)
        waitMs += (now.waitNs - (was?.waitNs ?? 0)) / 1e6
      }
      const main = after.get(ownTid)
      const mainBefore = before.get(ownTid)
      const mainRunMs = ((main?.runNs ?? 0) - (mainBefore?.runNs ?? 0)) / 1e6
      const mainWaitMs = ((main?.waitNs ?? 0) - (mainBefore?.waitNs ?? 0)) / 1e6
      const total = [...cpu.values()].reduce((x, y) => x + y, 0)
      console.log(`round ${round}${round <= 0 ? ' (warm-up)' : ''}: ${(memories / ms * 1000).toFixed(0)} memories/s in ${ms.toFixed(0)} ms; ` +
        `B's event loop on a CPU ${mainRunMs.toFixed(0)} ms, runnable but waiting ${mainWaitMs.toFixed(0)} ms; all threads waited ${waitMs.toFixed(0)} ms; ` +
        `CPU µs per record ${total.toFixed(0)} = ${ROLES.map((r) => `${r} ${(cpu.get(r) ?? 0).toFixed(0)}`).join(', ')}`)
      if (round <= 0) continue
      for (const [role, us] of cpu) totals.set(role, (totals.get(role) ?? 0) + us)
      totalMs += ms
      totalWaitMs += waitMs
    } finally {
      await b.dispose()
    }
  }
  const all = [...totals.values()].reduce((x, y) => x + y, 0)
  console.log(`mean of ${rounds}: ${(memories * rounds / totalMs * 1000).toFixed(0)} memories/s, all threads waited ${(totalWaitMs / rounds).toFixed(0)} ms a round; ` +
    `CPU µs per record ${(all / rounds).toFixed(0)} = ${ROLES.map((r) => `${r} ${((totals.get(r) ?? 0) / rounds).toFixed(0)}`).join(', ')}`)
} finally {
  await thread.request({ op: 'stop' }).catch(() => undefined)
  await thread.terminate()
}
