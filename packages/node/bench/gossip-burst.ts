import { performance } from 'node:perf_hooks'
import { createNetwork, TOPICS } from '../src/net/index.js'
import { encodeSignedRecord, verifyRecordBytes } from '../src/record/index.js'
import { createAgent, memoryRecord, signFast } from './fixtures.js'
import { BenchHost, CountingVerifier } from './network-host.js'
import { sleep, waitFor, waitForMeshes } from './network-mesh.js'
import { countRecords, startSyncNode } from './network-sync-node.js'
import { createRandom, median } from './stats.js'

/*
 * The gossip burst: one foreign peer (an in-memory host, in this process) publishes
 * `messages` memories on the memories topic back to back to a node (LocalNode + the daemon's
 * NetHost, as in figure 8c); the rate is messages ÷ the time from the first publish to the moment
 * the node stores the last one. Also this thread's CPU per memory over the same window (both
 * peers: the publisher's share is the same in every build), and the whole process's (every
 * thread: verifier threads, libuv's pool, V8's compiler and GC helpers). A fresh pair per round.
 *
 *   npm run build && node dist/bench/gossip-burst.js [--messages=2000] [--rounds=3] [--windows]
 *
 * `--windows` prints each round's window on stderr as CLOCK_MONOTONIC seconds (`window <from> <to>`),
 * which `perf record -k mono` stamps its samples with: `perf report --time <from>,<to>` then shows
 * the burst alone, without the signing and setup around it (BENCHMARKS.md).
 */

const arg = (name: string, fallback: string): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const MESSAGES = arg('messages', '2000')
const ROUNDS = arg('rounds', '3')
const WINDOWS = process.argv.includes('--windows')
/** Seconds of CLOCK_MONOTONIC, as perf's `-k mono` timestamps (libuv's hrtime reads that clock). */
const monotonic = (): string => (Number(process.hrtime.bigint()) / 1e9).toFixed(6)

interface RoundResult { rate: number, mainMicrosPerMemory: number, processMicrosPerMemory: number, stored: number }

async function round (seed: number): Promise<RoundResult> {
  const node = await startSyncNode('burst-b')
  const foreign = new BenchHost()
  const verifier = new CountingVerifier()
  const publisher = await createNetwork({ host: foreign, verifier, listen: ['/ip4/127.0.0.1/tcp/0'], syncOnConnect: false, dht: false })
  try {
    await publisher.dial(node.network.multiaddrs()[0] ?? node.network.peerId)
    await waitForMeshes([publisher, node.network], [TOPICS.memories], 30_000)
    await sleep(1000)
    const random = createRandom(seed)
    const author = createAgent(12, seed)
    const created = Date.now() - 60_000
    const bytes = Array.from({ length: MESSAGES }, (_, k) =>
      encodeSignedRecord(signFast(memoryRecord(random, { author, serial: k, createdMillis: created + k, tags: ['bench', 'burst'] }), author).signed))
    // The publisher holds what it publishes (as a node publishes its own memories), outside the window.
    for (const message of bytes) foreign.putLocal(verifyRecordBytes(message, { verifier, now: Date.now() }))
    const thread = process.threadCpuUsage()
    const processCpu = process.cpuUsage()
    const from = monotonic()
    const start = performance.now()
    for (const message of bytes) await publisher.publishRecord('memory', message)
    let stored = 0
    await waitFor('the burst stored', async () => {
      stored = (await countRecords(node.node)).memories
      return stored >= MESSAGES
    }, 60_000, 10).catch(() => {})
    const ms = performance.now() - start
    if (WINDOWS) process.stderr.write(`window ${from} ${monotonic()}\n`)
    const { user, system } = process.threadCpuUsage(thread)
    const all = process.cpuUsage(processCpu)
    return { rate: stored / (ms / 1000), mainMicrosPerMemory: (user + system) / stored, processMicrosPerMemory: (all.user + all.system) / stored, stored }
  } finally {
    await publisher.stop()
    await node.dispose()
  }
}

const results: RoundResult[] = []
for (let r = 0; r <= ROUNDS; r++) {
  const result = await round(r + 1)
  if (r > 0) results.push(result) // round 0 warms up (JIT, verifier threads)
}
process.stdout.write(`${JSON.stringify({
  messages: MESSAGES,
  medianRate: Math.round(median(results.map((r) => r.rate))),
  medianMainMicrosPerMemory: Math.round(median(results.map((r) => r.mainMicrosPerMemory))),
  medianProcessMicrosPerMemory: Math.round(median(results.map((r) => r.processMicrosPerMemory))),
  rounds: results.map((r) => ({ rate: Math.round(r.rate), mainMicrosPerMemory: Math.round(r.mainMicrosPerMemory), processMicrosPerMemory: Math.round(r.processMicrosPerMemory), stored: r.stored }))
})}\n`)
