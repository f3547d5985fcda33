import { fork, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createHttpOperations, type HttpOperations } from '../src/api-access/client.js'
import { readApiToken } from '../src/api-access/index.js'
import type { WitnessCounters } from '../src/daemon/index.js'
import { changeTrustRoot, initHome } from '../src/node/index.js'
import { nodePaths } from '../src/home/index.js'
import { shardOf } from '../src/shard/index.js'
import type { Figure } from './report.js'
import type { CostDaemonMessage, CostDaemonOptions, CostDaemonRequest, CostDaemonStarted, CostDaemonStats } from './witness-cost-daemon.js'

/*
 * What witnessing costs the network per memory as it grows (protocols/gossip-v1.md "What one memory
 * costs", protocols/witness-draw-v1.md): `nodes` real daemons on 127.0.0.1, each in a process of its
 * own (witness-cost-daemon.ts) as `isnad start` runs, each on `isnad start`'s defaults (witness draw,
 * witness budget, private checks, content routing, liveness pings), on fresh homes. Every node
 * trusts the same 3 roots (so a private check has reputable witnesses to ask) and auto-confirms every
 * author (`--auto-confirm-from`, the stand-in for agents answering their inbox). A warm-up memory per
 * node first (each node's population estimate then counts every agent); then every node publishes
 * `memories` memories, each with one request of its author addressed to 2 witnesses. The round ends
 * when no node's record count moved for 3 s. Per memory: witness requests and attestations signed
 * network-wide (the daemons' witness counters), gossip messages each node received (accepted +
 * duplicates) and each daemon's process CPU, averaged over the daemons. Also reported: the longest
 * event-loop delay of any daemon and the connections closed during the round (a ping that failed
 * closes its connection: a storm of closes is the machine, not the protocol, and shows here).
 *
 * Sharded (`perShard`): the same on a scale model of a sharded network (protocols/gossip-v1.md §11).
 * A network of 8 to 32 agents has count 1 at the defaults (a shard holds 80 to 160 agents), so each
 * daemon is set to the count nodes / perShard (`--shard-count`), that many daemons to a shard as a
 * real shard has agents, everything else at its default. Each daemon also dials two earlier daemons
 * of its own shard (a shard's nodes must meet for its gossip to flow), and an author addresses its
 * request to the next two daemons of its shard.
 *
 *   npm run build && node dist/bench/witness-cost.js [--nodes 8,16,32] [--memories 3] [--per-shard 8]
 *     [--log-dir DIR] [--cpu-prof-dir DIR]   (each daemon's log, CPU profile: DIR/<nodes>/)
 */

const QUIET_MS = 3000
/** How long the daemons' CPU is measured with nothing published. */
const IDLE_MS = 5000
/** Time between two memories published, network-wide (a steady trickle, not a burst). */
const SPACING_MS = 200
/**
 * The API client's timeout here: this measures cost, not latency, and on a loaded machine one
 * daemon's `remember` has waited past the client's default 60 s, which ended the run. The slowest
 * publish of the round is reported instead (`slowestPublishMs`).
 */
const API_TIMEOUT_MS = 600_000
/** A daemon's process that has not exited this long after its stop is killed. */
const STOP_GRACE_MS = 10_000
const DAEMON_SCRIPT = fileURLToPath(new URL('./witness-cost-daemon.js', import.meta.url))

export interface WitnessCostRound {
  nodes: number
  /** The shard count every daemon was set to (1: the defaults of a network this small). */
  shards: number
  memories: number
  requestsPerMemory: number
  attestationsPerMemory: number
  drawnAttestationsPerMemory: number
  privateChecksPerMemory: number
  /** Nodes per memory that, its delay past, held no drawn answer they accept (a private check then due). */
  privateChecksDuePerMemory: number
  /** Private checks that failed (an error before the request was stored), in all. */
  privateChecksFailed: number
  messagesPerNodePerMemory: number
  cpuMsPerNodePerMemory: number
  /** The slowest publish (remember, then the witness request) of the measured memories. */
  slowestPublishMs: number
  /** The slowest `remember` alone: it returns once the memory is durably stored. */
  slowestRememberMs: number
  /** The longest event-loop delay of any daemon during the measured memories, ms. */
  loopDelayMaxMs: number
  /** Connections the daemons closed during the measured memories (each counted at both ends). */
  closes: number
  seconds: number
  /** CPU per daemon per second while nothing is published (before the warm-up): timers, pings, meshes. */
  idleCpuMsPerNodePerSecond: number
  /** The machine's 1-minute load average at the start and the end of the round. */
  load: [number, number]
}

/** A daemon in its own process, driven through its HTTP API and asked for its counters over IPC. */
class DaemonProcess {
  private readonly answers = new Map<number, (stats: CostDaemonStats | undefined) => void>()
  private nextId = 0
  private readonly exited: Promise<void>

  private constructor (private readonly child: ChildProcess, readonly started: CostDaemonStarted) {
    this.exited = new Promise((resolve) => child.once('exit', () => { resolve() }))
    child.on('message', (message: CostDaemonMessage) => {
      if (message.type !== 'answer') return
      this.answers.get(message.id)?.(message.stats)
      this.answers.delete(message.id)
    })
  }

  static async start (options: CostDaemonOptions, cpuProfileDir?: string): Promise<DaemonProcess> {
    const execArgv = cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir]
    const child = fork(DAEMON_SCRIPT, [JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv })
    const started = await new Promise<CostDaemonStarted>((resolve, reject) => {
      child.on('message', (message: CostDaemonMessage) => {
        if (message.type === 'started') resolve(message.started)
        if (message.type === 'failed') reject(new Error(`a daemon did not start: ${message.error}`))
      })
      child.once('exit', (code) => { reject(new Error(`a daemon's process exited with ${code} before it started`)) })
    })
    return new DaemonProcess(child, started)
  }

  async stats (): Promise<CostDaemonStats> {
    const stats = await this.ask('stats')
    if (stats === undefined) throw new Error('a daemon answered stats without them')
    return stats
  }

  /** Stops the daemon (API, network, node), then its process; killed past STOP_GRACE_MS. */
  async stop (): Promise<void> {
    if (this.child.exitCode !== null) return
    const timer = setTimeout(() => { this.child.kill('SIGKILL') }, STOP_GRACE_MS)
    await Promise.race([this.ask('stop'), this.exited]).catch(() => {})
    await this.exited
    clearTimeout(timer)
  }

  private async ask (op: CostDaemonRequest['op']): Promise<CostDaemonStats | undefined> {
    const id = this.nextId++
    return await new Promise((resolve) => {
      this.answers.set(id, resolve)
      this.child.send({ id, op } satisfies CostDaemonRequest)
    })
  }
}

interface Peer { daemon: DaemonProcess, ops: HttpOperations, agent: string }

async function sleep (ms: number): Promise<void> { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** Waits until no node's record count moved for QUIET_MS. */
async function quiet (peers: readonly Peer[]): Promise<void> {
  let last = ''
  let stableSince = performance.now()
  while (performance.now() - stableSince < QUIET_MS) {
    const now = JSON.stringify(await Promise.all(peers.map(async (p) => (await p.ops.call('status', {})).records)))
    if (now !== last) { last = now; stableSince = performance.now() }
    await sleep(250)
  }
}

async function statsOf (peers: readonly Peer[]): Promise<CostDaemonStats[]> {
  return await Promise.all(peers.map(async (p) => await p.daemon.stats()))
}

/** How a round runs besides its size. */
export interface RoundOptions {
  /** Daemons to a shard: the shard count is nodes / perShard. @default one shard */
  perShard?: number
  /** Each daemon's log at info in this directory, `node-<i>.log` (diagnosis). */
  logDir?: string
  /** Each daemon's CPU profile (`--cpu-prof`) in this directory, written when it exits (diagnosis). */
  cpuProfileDir?: string
}

/** One round on `nodes` fresh daemons; with `perShard`, at the shard count nodes / perShard. */
export async function witnessCostRound (nodes: number, memoriesPerNode: number, progress: (text: string) => void, { perShard, logDir, cpuProfileDir }: RoundOptions = {}): Promise<WitnessCostRound> {
  const loadAtStart = loadavg()[0]!
  const shards = perShard === undefined ? 1 : Math.max(1, Math.floor(nodes / perShard))
  const root = await mkdtemp(join(tmpdir(), 'isnad-witness-cost-'))
  const homes = await Promise.all(Array.from({ length: nodes }, async (_, i) => {
    const home = join(root, `node-${i}`)
    return { home, agent: (await initHome(home)).defaultKey.did }
  }))
  const roots = homes.slice(1, 4).map((h) => h.agent)
  const everyone = homes.map((h) => h.agent)
  for (const h of homes) for (const r of roots) if (r !== h.agent) await changeTrustRoot(nodePaths(h.home).data, 'added', r, Date.now())
  const shardOfNode = homes.map((h) => shardOf(h.agent, shards))
  /** The daemons of node i's shard after it, in order (wrapping): whom it addresses when sharded. */
  const sameShard = (i: number): number[] => Array.from({ length: nodes - 1 }, (_, k) => (i + 1 + k) % nodes).filter((j) => shardOfNode[j] === shardOfNode[i])
  const peers: Peer[] = []
  try {
    for (const [i, h] of homes.entries()) {
      const earlier = Array.from({ length: i }, (_, j) => j)
      const kin = earlier.filter((j) => shardOfNode[j] === shardOfNode[i]).sort(() => Math.random() - 0.5).slice(0, 2)
      const picked = new Set([...(i === 0 ? [] : [Math.floor(Math.random() * i)]), ...(shards > 1 ? kin : [])])
      const bootstrap = [...picked].map((j) => peers[j]!.daemon.started.addr)
      const logFile = logDir === undefined ? {} : { logFile: join(logDir, `node-${i}.log`) }
      const daemon = await DaemonProcess.start({ home: h.home, bootstrap, autoConfirmFrom: everyone, ...(shards > 1 ? { shardCount: shards } : {}), ...logFile }, cpuProfileDir)
      peers.push({ daemon, ops: createHttpOperations({ url: daemon.started.url, token: await readApiToken(nodePaths(h.home).data), timeoutMs: API_TIMEOUT_MS }), agent: h.agent })
    }
    while ((await statsOf(peers)).some((s) => s.peers === 0)) await sleep(100)
    await sleep(3000) // gossipsub meshes
    const idleBefore = await statsOf(peers)
    await sleep(IDLE_MS)
    const idleAfter = await statsOf(peers)
    const idleCpuMsPerNodePerSecond = idleAfter.reduce((t, s, i) => t + s.cpuMicros - idleBefore[i]!.cpuMicros, 0) / 1000 / nodes / (IDLE_MS / 1000)
    let slowestPublishMs = 0
    let slowestRememberMs = 0
    const publish = async (i: number, text: string): Promise<void> => {
      const began = performance.now()
      const author = peers[i]!
      const memory = await author.ops.call('remember', { type: 'observation', summary: text })
      slowestRememberMs = Math.max(slowestRememberMs, performance.now() - began)
      const kin = sameShard(i)
      const to = (shards > 1 && kin.length >= 2 ? kin.slice(0, 2) : [(i + 1) % nodes, (i + 2) % nodes]).map((j) => peers[j]!.agent)
      await author.ops.call('requestWitnesses', { id: memory.id, to })
      slowestPublishMs = Math.max(slowestPublishMs, performance.now() - began)
    }
    progress(`witness cost: ${nodes} daemons up (shard count ${shards}), warm-up (a memory each)`)
    for (let i = 0; i < nodes; i++) { await publish(i, `warm-up of node ${i}`); await sleep(SPACING_MS) }
    await quiet(peers)

    const before = await statsOf(peers)
    slowestPublishMs = 0
    slowestRememberMs = 0
    const start = performance.now()
    progress(`witness cost: ${nodes} daemons, ${memoriesPerNode} memories each`)
    for (let k = 0; k < memoriesPerNode; k++) {
      for (let i = 0; i < nodes; i++) { await publish(i, `memory ${k} of node ${i}`); await sleep(SPACING_MS) }
    }
    await quiet(peers)
    const seconds = (performance.now() - start - QUIET_MS) / 1000
    const after = await statsOf(peers)
    const memories = nodes * memoriesPerNode
    const delta = (of: (s: CostDaemonStats) => number): number => after.reduce((t, s) => t + of(s), 0) - before.reduce((t, s) => t + of(s), 0)
    const witness = (of: (w: WitnessCounters) => number): number => delta((s) => of(s.witness)) / memories
    return {
      nodes,
      shards,
      memories,
      requestsPerMemory: witness((w) => w.requests),
      attestationsPerMemory: witness((w) => w.attestations),
      drawnAttestationsPerMemory: witness((w) => w.drawn_attestations),
      privateChecksPerMemory: witness((w) => w.private_checks.asked),
      privateChecksDuePerMemory: witness((w) => w.private_checks.due),
      privateChecksFailed: delta((s) => s.witness.private_checks.failed),
      messagesPerNodePerMemory: delta((s) => s.gossipReceived) / nodes / memories,
      cpuMsPerNodePerMemory: delta((s) => s.cpuMicros) / 1000 / nodes / memories,
      slowestPublishMs,
      slowestRememberMs,
      loopDelayMaxMs: Math.max(...after.map((s) => s.loopDelayMaxMs)),
      closes: delta((s) => s.closes),
      seconds,
      idleCpuMsPerNodePerSecond,
      load: [loadAtStart, loadavg()[0]!]
    }
  } finally {
    await Promise.all(peers.map(async (p) => { await p.daemon.stop() }))
    await rm(root, { recursive: true, force: true })
  }
}

/** Flat within this factor from the smallest network to the largest: messages and CPU per node per memory. */
export const FLAT_TARGET = 1.5
/** Network-wide per memory at most. */
export const REQUESTS_TARGET = 6
export const ATTESTATIONS_TARGET = 10

/** @default 8 — daemons to a shard in the sharded rounds: the count is nodes / 8 (1, 2 and 4 at 8, 16 and 32 daemons). */
export const DAEMONS_PER_SHARD = 8

/**
 * Figure 15 of `npm run bench`: the rounds at the defaults (count 1), then the sharded rounds
 * (count nodes / DAEMONS_PER_SHARD) of the sizes that have more than one shard, each size's ratio
 * to the smallest network (8 daemons, which is count 1 in both series).
 */
export async function benchWitnessCost (options: { sizes: number[], memories: number, progress: (text: string) => void }): Promise<Figure[]> {
  const section = '15. witness cost per memory (real daemons, a process each, defaults; sharded)'
  options.progress(section)
  const rounds: WitnessCostRound[] = []
  const run = async (n: number, perShard?: number): Promise<void> => {
    const r = await witnessCostRound(n, options.memories, options.progress, perShard === undefined ? {} : { perShard })
    options.progress(`witness cost: ${JSON.stringify(r)}`)
    rounds.push(r)
  }
  for (const n of options.sizes) await run(n)
  for (const n of options.sizes) if (n / DAEMONS_PER_SHARD >= 2) await run(n, DAEMONS_PER_SHARD)
  const base = rounds[0]!
  return rounds.flatMap((r) => roundFigures(section, r, base))
}

/** A round's figures against the smallest network's. */
function roundFigures (section: string, r: WitnessCostRound, base: WitnessCostRound): Figure[] {
  const detail = { nodes: r.nodes, shards: r.shards, memories: r.memories, drawnAttestationsPerMemory: round2(r.drawnAttestationsPerMemory), privateChecksPerMemory: round2(r.privateChecksPerMemory), privateChecksDuePerMemory: round2(r.privateChecksDuePerMemory), privateChecksFailed: r.privateChecksFailed, slowestPublishMs: Math.round(r.slowestPublishMs), slowestRememberMs: Math.round(r.slowestRememberMs), loopDelayMaxMs: Math.round(r.loopDelayMaxMs), closes: r.closes, idleCpuMsPerNodePerSecond: round2(r.idleCpuMsPerNodePerSecond), seconds: round2(r.seconds), load: r.load.map(round2) }
  const baseline = `${base.nodes} daemons`
  const label = `${r.nodes} daemons${r.shards > 1 ? ` in ${r.shards} shards` : ''}`
  const figure = (what: string, unit: string, value: number, baseValue: number, target: { text: string, met: boolean }, extra?: Figure['detail']): Figure => ({
    section, name: `${label}: ${what}`, value: round2(value), unit, baseline: { name: baseline, value: round2(baseValue), unit }, ratio: round2(value / baseValue), target, ...(extra === undefined ? {} : { detail: extra })
  })
  const flat = (value: number, baseValue: number): { text: string, met: boolean } => ({ text: `≤ ${FLAT_TARGET}× ${baseline}`, met: value <= FLAT_TARGET * baseValue })
  return [
    figure('witness requests per memory, network-wide', 'requests', r.requestsPerMemory, base.requestsPerMemory, { text: `≤ ${REQUESTS_TARGET}`, met: r.requestsPerMemory <= REQUESTS_TARGET }, detail),
    figure('attestations per memory, network-wide', 'attestations', r.attestationsPerMemory, base.attestationsPerMemory, { text: `≤ ${ATTESTATIONS_TARGET}`, met: r.attestationsPerMemory <= ATTESTATIONS_TARGET }),
    figure('gossip messages received per node per memory', 'messages', r.messagesPerNodePerMemory, base.messagesPerNodePerMemory, flat(r.messagesPerNodePerMemory, base.messagesPerNodePerMemory)),
    figure('CPU per node per memory', 'ms', r.cpuMsPerNodePerMemory, base.cpuMsPerNodePerMemory, flat(r.cpuMsPerNodePerMemory, base.cpuMsPerNodePerMemory))
  ]
}

function round2 (x: number): number { return Math.round(x * 100) / 100 }

/** The markdown table BENCHMARKS.md shows. */
export function witnessCostTable (rounds: readonly WitnessCostRound[]): string {
  const base = rounds[0]!
  const row = (r: WitnessCostRound): string => `| ${r.nodes} | ${r.shards} | ${r.memories} | ${r.requestsPerMemory.toFixed(2)} | ${r.attestationsPerMemory.toFixed(2)} (${r.drawnAttestationsPerMemory.toFixed(2)} drawn) | ${r.privateChecksPerMemory.toFixed(2)} (${r.privateChecksDuePerMemory.toFixed(2)} due, ${r.privateChecksFailed} failed) | ${r.messagesPerNodePerMemory.toFixed(2)} (${(r.messagesPerNodePerMemory / base.messagesPerNodePerMemory).toFixed(2)}×) | ${r.cpuMsPerNodePerMemory.toFixed(1)} (${(r.cpuMsPerNodePerMemory / base.cpuMsPerNodePerMemory).toFixed(2)}×) | ${(r.slowestPublishMs / 1000).toFixed(1)} (${(r.slowestRememberMs / 1000).toFixed(1)}) | ${(r.loopDelayMaxMs / 1000).toFixed(1)} · ${r.closes} | ${r.load.map((l) => l.toFixed(1)).join('–')} |`
  return [
    '| daemons | shards | memories | witness requests / memory | attestations / memory | private checks / memory (nodes with one due) | gossip messages / node / memory (× smallest) | CPU ms / node / memory (× smallest) | slowest publish (remember), s | loop delay max, s · connections closed | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.map(row)
  ].join('\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { nodes: { type: 'string', default: '8,16,32' }, memories: { type: 'string', default: '3' }, 'per-shard': { type: 'string' }, 'log-dir': { type: 'string' }, 'cpu-prof-dir': { type: 'string' } } })
  const say = (text: string): void => { process.stderr.write(`[witness-cost] ${text}\n`) }
  const perShard = values['per-shard'] === undefined ? undefined : Number(values['per-shard'])
  const rounds: WitnessCostRound[] = []
  for (const n of values.nodes.split(',').map(Number)) {
    const diagnosis = { ...(values['log-dir'] === undefined ? {} : { logDir: join(values['log-dir'], `${n}`) }), ...(values['cpu-prof-dir'] === undefined ? {} : { cpuProfileDir: join(values['cpu-prof-dir'], `${n}`) }) }
    if (diagnosis.logDir !== undefined) await mkdir(diagnosis.logDir, { recursive: true })
    const r = await witnessCostRound(n, Number(values.memories), say, { ...(perShard === undefined ? {} : { perShard }), ...diagnosis })
    say(JSON.stringify(r))
    rounds.push(r)
  }
  process.stdout.write(witnessCostTable(rounds) + '\n')
}
