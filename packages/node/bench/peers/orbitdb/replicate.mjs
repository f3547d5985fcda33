import { readFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { multiaddr } from '@multiformats/multiaddr'
import { digestOf, startPeer } from './peer.mjs'

/*
 * `npm run bench:orbitdb`: figure 8c's optional peer baseline, OrbitDB 4's replication on a loopback
 * pair, next to figure 8c (isnad's sync catch-up; `npm run bench -- --only=8 --network=sync`).
 * Not a figure of `npm run bench` and not a test: it needs this folder's own dependencies
 * (@orbitdb/core 4.0.0 with Helia 6 and libp2p 3, installed by `npm ci --prefix bench/peers/orbitdb`).
 *
 * Peer A (writer.mjs, a thread of its own) holds figure 8c's 3,000 records as 3,000 entries of an
 * events database. Each round a fresh peer B (new key, new LevelDB blockstore and OrbitDB
 * directory, started before the clock) dials A on 127.0.0.1, opens A's database address and
 * replicates; the clock stops when B's log holds A's head, which OrbitDB adds only after it has
 * fetched and verified every entry the head reaches. Then, off the clock, B's entries are counted
 * and their values compared with A's records (a SHA-256 of each). Entries per second are 3,000 ÷ that
 * time, the counterpart of figure 8c's records per second (its memories per second × 3).
 *
 * Options: --rounds=3 --warmups=1 (figure 8c's), --memories=1000 --witnesses=2 --seed=4 (figure 8c's
 * workload), --timeout-s=300 (per round), --json (the result as JSON on stdout).
 */

const HELP = `npm run bench:orbitdb [-- options]
  OrbitDB 4 replication of figure 8c's 3,000 records on a loopback pair (figure 8c's peer baseline).
  --rounds=N      measured rounds (default 3)
  --warmups=N     rounds run first and discarded (default 1)
  --memories=N    memories in the workload, each with --witnesses attestations (default 1000, 2)
  --seed=N        the workload's seed (default 4, figure 8c's)
  --timeout-s=N   give up a round after N seconds (default 300)
  --json          print the result as JSON on stdout instead of a table`

function option (name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  if (arg === undefined) return fallback
  const value = Number(arg.slice(name.length + 3))
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number, not ${arg}`)
  return value
}

function progress (text) {
  process.stderr.write(`[orbitdb ${(performance.now() / 1000).toFixed(0).padStart(3)} s] ${text}\n`)
}

function median (values) {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Peer A on its own thread, answering one request at a time. */
function startWriter (workload) {
  const worker = new Worker(new URL('./writer.mjs', import.meta.url), { workerData: workload })
  const request = (op) => new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message.op !== op) return
      worker.off('message', onMessage)
      worker.off('error', reject)
      if (message.error !== undefined) reject(new Error(`peer A: ${message.error}`))
      else resolve(message.result)
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
    worker.postMessage({ op })
  })
  return { request, terminate: async () => { await worker.terminate() } }
}

/** Resolves once B's log holds every head of A's log (and so every entry they reach). */
function holdsHeads (db, heads, timeoutMs) {
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (err) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      db.events.off('update', check)
      db.events.off('join', check)
      db.events.off('error', onError)
      if (err === undefined) resolve()
      else reject(err)
    }
    const check = () => {
      Promise.all(heads.map((hash) => db.log.has(hash)))
        .then((held) => { if (held.every(Boolean)) finish() })
        .catch(finish)
    }
    // Sync reports a failed exchange (a timeout, a closed stream) and carries on: show it, keep waiting.
    const onError = (err) => { progress(`B: sync error: ${err?.message ?? String(err)}`) }
    const timer = setTimeout(() => { finish(new Error(`B did not hold A's heads after ${timeoutMs / 1000} s`)) }, timeoutMs)
    db.events.on('update', check)
    db.events.on('join', check)
    db.events.on('error', onError)
    check()
  })
}

async function replicateRound (a, timeoutMs) {
  const b = await startPeer('b')
  try {
    const cpu = process.cpuUsage()
    const start = performance.now()
    await b.helia.libp2p.dial(multiaddr(a.addresses[0]))
    const dialed = performance.now()
    const db = await b.orbitdb.open(a.address)
    const opened = performance.now()
    await holdsHeads(db, a.heads, timeoutMs)
    const ms = performance.now() - start
    const { user, system } = process.cpuUsage(cpu)
    const values = (await db.all()).map((entry) => entry.value)
    if (values.length !== a.entries) throw new Error(`B holds ${values.length} of ${a.entries} entries`)
    if (digestOf(values) !== a.digest) throw new Error('B\'s entries differ from the records A wrote')
    return { entries: values.length, ms, cpuMs: (user + system) / 1000, dialMs: dialed - start, openMs: opened - dialed }
  } finally {
    await b.dispose()
  }
}

async function main () {
  if (process.argv.includes('--help')) {
    process.stdout.write(HELP + '\n')
    return
  }
  const workload = { memories: option('memories', 1000), witnessesPerMemory: option('witnesses', 2), seed: option('seed', 4) }
  const rounds = option('rounds', 3)
  if (rounds === 0) throw new Error('--rounds must be at least 1')
  const warmups = option('warmups', 1)
  const timeoutMs = 1000 * option('timeout-s', 300)
  const writer = startWriter(workload)
  try {
    const a = await writer.request('start')
    if (a.heads.length === 0) throw new Error('peer A holds no entries')
    progress(`A wrote ${a.entries} entries (${a.payloadBytes} bytes of records, ${a.entryBytes} bytes as OrbitDB entries) in ${(a.populateMs / 1000).toFixed(1)} s; ${warmups + rounds} rounds of a fresh B replicating them (${warmups} discarded)`)
    const samples = []
    for (let round = 0; round < warmups + rounds; round++) {
      const sample = await replicateRound(a, timeoutMs)
      progress(`round ${round + 1}${round < warmups ? ' (warm-up)' : ''}: ${sample.entries} entries in ${(sample.ms / 1000).toFixed(2)} s = ${(sample.entries / sample.ms * 1000).toFixed(0)} entries/s, ${(1000 * sample.cpuMs / sample.entries).toFixed(0)} µs CPU per entry (both peers); dial ${sample.dialMs.toFixed(0)} ms, open ${sample.openMs.toFixed(0)} ms`)
      if (round >= warmups) samples.push(sample)
    }
    const rates = samples.map((s) => s.entries / s.ms * 1000)
    const result = {
      name: 'OrbitDB 4 replication (events database), fresh B dials A on 127.0.0.1 until it holds every entry',
      versions: await versions(),
      entries: a.entries,
      payloadBytes: a.payloadBytes,
      entryBytes: a.entryBytes,
      populateSeconds: a.populateMs / 1000,
      entriesPerSecond: median(rates),
      rates: rates.map(Math.round),
      cpuMicrosPerEntry: median(samples.map((s) => 1000 * s.cpuMs / s.entries))
    }
    if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(result, null, 2) + '\n')
    else {
      process.stdout.write(`${result.name}\n`)
      process.stdout.write(`  ${Object.entries(result.versions).map(([name, version]) => `${name} ${version}`).join(', ')}\n`)
      process.stdout.write(`  ${result.entries} entries (figure 8c's records, ${result.payloadBytes} bytes; ${result.entryBytes} bytes as entries)\n`)
      process.stdout.write(`  median ${result.entriesPerSecond.toFixed(0)} entries/s (rounds: ${result.rates.join(', ')}), ${result.cpuMicrosPerEntry.toFixed(0)} µs CPU per entry (both peers)\n`)
    }
  } finally {
    await writer.request('stop').catch(() => undefined)
    await writer.terminate()
  }
}

/** The versions installed in this folder, as the result names what it measured. */
async function versions () {
  const out = {}
  for (const name of ['@orbitdb/core', 'helia', 'libp2p', '@libp2p/gossipsub', '@helia/bitswap']) {
    const manifest = await readFile(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8').catch(() => undefined)
    out[name] = manifest === undefined ? 'not installed at the top level' : JSON.parse(manifest).version
  }
  return out
}

main().catch((err) => {
  process.stderr.write(`bench:orbitdb failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exitCode = 1
})
