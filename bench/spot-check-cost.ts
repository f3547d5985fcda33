import { mkdtemp, rm } from 'node:fs/promises'
import { setPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createHttpOperations, type HttpOperations } from '../src/api/client.js'
import { readApiToken } from '../src/api/index.js'
import { startDaemon, type Daemon } from '../src/daemon/index.js'
import { changeTrustRoot, initHome, nodePaths } from '../src/node/index.js'

/*
 * What spot checks cost a daemon on defaults (issue 18, docs/trust.md §5a). `nodes` real daemons in
 * this process on 127.0.0.1, every one on `isnad start`'s defaults but for the spot checks, which
 * one round plays off (`--no-spot-checks`, the baseline) and the next on (the default), on fresh
 * homes. Every node trusts the same 3 roots (witnesses 1–3) and auto-confirms any request, so every
 * drawn witness answers. One author publishes `memories` memories, each asking 3 witnesses. The
 * round ends when no node's record count moved for 3 s. Per memory: witness requests and
 * attestations gossiped (counted at the author's node, which holds everything), gossip messages each
 * node received (accepted + duplicates), and process CPU per node (all daemons share the process).
 *
 *   npm run build && node dist/bench/spot-check-cost.js [--nodes 8] [--memories 20] [--rounds 2]
 */

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '8' }, memories: { type: 'string', default: '20' }, rounds: { type: 'string', default: '2' }, nice: { type: 'string', default: '10' } } })
const NODES = Number(values.nodes)
const MEMORIES = Number(values.memories)
const ROUNDS = Number(values.rounds)
const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const QUIET_MS = 3000

interface Peer { daemon: Daemon, ops: HttpOperations, agent: string }

interface Round {
  spotChecks: boolean
  requestsPerMemory: number
  attestationsPerMemory: number
  messagesPerNodePerMemory: number
  cpuMsPerNodePerMemory: number
  seconds: number
}

function say (text: string): void { process.stderr.write(`[spot-cost] ${text}\n`) }

async function sleep (ms: number): Promise<void> { await new Promise((resolve) => setTimeout(resolve, ms)) }

async function counts (peers: readonly Peer[]): Promise<string> {
  return JSON.stringify(await Promise.all(peers.map(async (p) => (await p.ops.status()).records)))
}

async function round (spotChecks: boolean): Promise<Round> {
  const root = await mkdtemp(join(tmpdir(), 'isnad-spot-cost-'))
  const homes = await Promise.all(Array.from({ length: NODES }, async (_, i) => {
    const home = join(root, `node-${i}`)
    return { home, agent: (await initHome(home)).defaultKey.did }
  }))
  const roots = homes.slice(1, 4).map((h) => h.agent)
  const everyone = homes.map((h) => h.agent)
  for (const h of homes) for (const r of roots) if (r !== h.agent) await changeTrustRoot(nodePaths(h.home).data, 'added', r, Date.now())
  const peers: Peer[] = []
  try {
    for (const [i, h] of homes.entries()) {
      const bootstrap = i === 0 ? [] : [peers[0]!.daemon.multiaddrs()[0]!]
      const daemon = await startDaemon({ home: h.home, listen: LOOPBACK, apiPort: 0, heartbeatMs: 600_000, bootstrap, autoConfirmFrom: everyone, ...(spotChecks ? {} : { spotChecks: false }) })
      peers.push({ daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(h.home).data) }), agent: h.agent })
    }
    for (const p of peers) while (p.daemon.network.libp2p.getPeers().length === 0) await sleep(100)
    await sleep(3000) // gossipsub meshes
    const before = peers.map((p) => ({ ...p.daemon.network.stats.gossip }))
    const cpu = process.cpuUsage()
    const start = performance.now()
    const author = peers[0]!
    const signer = await author.ops.resolveSigner()
    for (let k = 0; k < MEMORIES; k++) {
      const memory = await author.ops.remember({ type: 'observation', summary: `spot-check cost ${k}` }, signer)
      const to = [1, 2, 3].map((j) => peers[1 + ((k + j) % (NODES - 1))]!.agent)
      await author.ops.requestWitnesses({ memory: memory.id, to }, signer)
      await sleep(250)
    }
    // Quiet: nothing new anywhere for QUIET_MS (spot checks start 2 s after a memory arrives).
    let last = ''
    let stableSince = performance.now()
    while (performance.now() - stableSince < QUIET_MS) {
      const now = await counts(peers)
      if (now !== last) { last = now; stableSince = performance.now() }
      await sleep(250)
    }
    const seconds = (performance.now() - start - QUIET_MS) / 1000
    const used = process.cpuUsage(cpu)
    const held = (await author.ops.status()).records
    const received = peers.map((p, i) => (p.daemon.network.stats.gossip.accepted - before[i]!.accepted) + (p.daemon.network.stats.gossip.ignored - before[i]!.ignored))
    return {
      spotChecks,
      requestsPerMemory: (held.witness_request ?? 0) / MEMORIES,
      attestationsPerMemory: (held.attestation ?? 0) / MEMORIES,
      messagesPerNodePerMemory: received.reduce((a, b) => a + b, 0) / NODES / MEMORIES,
      cpuMsPerNodePerMemory: (used.user + used.system) / 1000 / NODES / MEMORIES,
      seconds
    }
  } finally {
    for (const p of peers) await p.daemon.stop()
    await rm(root, { recursive: true, force: true })
  }
}

function mean (xs: number[]): number { return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length) }

async function main (): Promise<void> {
  setPriority(Number(values.nice))
  const rounds: Round[] = []
  for (let r = 0; r < ROUNDS; r++) {
    for (const on of [false, true]) {
      const result = await round(on)
      say(JSON.stringify(result))
      rounds.push(result)
    }
  }
  const of = (on: boolean, key: keyof Omit<Round, 'spotChecks'>): number => mean(rounds.filter((r) => r.spotChecks === on).map((r) => r[key]))
  const rows = (['requestsPerMemory', 'attestationsPerMemory', 'messagesPerNodePerMemory', 'cpuMsPerNodePerMemory'] as const).map((key) => {
    const off = of(false, key)
    const on = of(true, key)
    return `| ${key} | ${off.toFixed(2)} | ${on.toFixed(2)} | ${(on / off).toFixed(2)} |`
  })
  process.stdout.write([
    `${NODES} daemons in one process, ${MEMORIES} memories by one author (3 witnesses asked each), ${ROUNDS} rounds of each, means; every node trusts the same 3 roots and auto-confirms every request.`,
    '',
    '| per memory | --no-spot-checks | defaults (spot checks) | ratio |',
    '|---|---|---|---|',
    ...rows,
    ''
  ].join('\n'))
}

await main()
