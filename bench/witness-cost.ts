import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createHttpOperations, type HttpOperations } from '../src/http/client.js'
import { readApiToken } from '../src/http/index.js'
import { startDaemon, type Daemon, type WitnessCounters } from '../src/daemon/index.js'
import { changeTrustRoot, initHome, nodePaths } from '../src/node/index.js'
import type { Figure } from './report.js'

/*
 * What witnessing costs the network per memory as it grows (protocols/gossip-v1.md "What one memory
 * costs", protocols/witness-draw-v1.md): `nodes` real daemons in this process on 127.0.0.1, each on
 * `isnad start`'s defaults (witness draw, witness budget, private checks), on fresh homes. Every node
 * trusts the same 3 roots (so a private check has reputable witnesses to ask) and auto-confirms every
 * author (`--auto-confirm-from`, the stand-in for agents answering their inbox). A warm-up memory per
 * node first (each node's population estimate then counts every agent); then every node publishes
 * `memories` memories, each with one request of its author addressed to 2 witnesses. The round ends
 * when no node's record count moved for 3 s. Per memory: witness requests and attestations signed
 * network-wide (the daemons' witness counters), gossip messages each node received (accepted +
 * duplicates) and process CPU per node (all daemons share the process).
 *
 *   npm run build && node dist/bench/witness-cost.js [--nodes 8,16,32] [--memories 3]
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const QUIET_MS = 3000
/** Time between two memories published, network-wide (a steady trickle, not a burst). */
const SPACING_MS = 200

export interface WitnessCostRound {
  nodes: number
  memories: number
  requestsPerMemory: number
  attestationsPerMemory: number
  drawnAttestationsPerMemory: number
  privateChecksPerMemory: number
  /** Nodes per memory that, its delay past, held no drawn answer they accept (a private check then due). */
  privateChecksDuePerMemory: number
  messagesPerNodePerMemory: number
  cpuMsPerNodePerMemory: number
  seconds: number
}

interface Peer { daemon: Daemon, ops: HttpOperations, agent: string }

async function sleep (ms: number): Promise<void> { await new Promise((resolve) => setTimeout(resolve, ms)) }

/** Waits until no node's record count moved for QUIET_MS. */
async function quiet (peers: readonly Peer[]): Promise<void> {
  let last = ''
  let stableSince = performance.now()
  while (performance.now() - stableSince < QUIET_MS) {
    const now = JSON.stringify(await Promise.all(peers.map(async (p) => (await p.ops.status()).records)))
    if (now !== last) { last = now; stableSince = performance.now() }
    await sleep(250)
  }
}

function sum (peers: readonly Peer[], of: (w: WitnessCounters) => number): number {
  return peers.reduce((total, p) => total + of(p.daemon.witness), 0)
}

/** One round on `nodes` fresh daemons. */
export async function witnessCostRound (nodes: number, memoriesPerNode: number, progress: (text: string) => void): Promise<WitnessCostRound> {
  const root = await mkdtemp(join(tmpdir(), 'isnad-witness-cost-'))
  const homes = await Promise.all(Array.from({ length: nodes }, async (_, i) => {
    const home = join(root, `node-${i}`)
    return { home, agent: (await initHome(home)).defaultKey.did }
  }))
  const roots = homes.slice(1, 4).map((h) => h.agent)
  const everyone = homes.map((h) => h.agent)
  for (const h of homes) for (const r of roots) if (r !== h.agent) await changeTrustRoot(nodePaths(h.home).data, 'added', r, Date.now())
  const peers: Peer[] = []
  try {
    for (const [i, h] of homes.entries()) {
      const bootstrap = i === 0 ? [] : [peers[Math.floor(Math.random() * i)]!.daemon.multiaddrs()[0]!]
      const daemon = await startDaemon({ home: h.home, listen: LOOPBACK, apiPort: 0, heartbeatMs: 600_000, bootstrap, autoConfirmFrom: everyone })
      peers.push({ daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(h.home).data) }), agent: h.agent })
    }
    for (const p of peers) while (p.daemon.network.libp2p.getPeers().length === 0) await sleep(100)
    await sleep(3000) // gossipsub meshes
    const signers = await Promise.all(peers.map(async (p) => await p.ops.resolveSigner()))
    const publish = async (i: number, text: string): Promise<void> => {
      const author = peers[i]!
      const memory = await author.ops.remember({ type: 'observation', summary: text }, signers[i]!)
      const to = [1, 2].map((j) => peers[(i + j) % nodes]!.agent)
      await author.ops.requestWitnesses({ memory: memory.id, to }, signers[i]!)
    }
    progress(`witness cost: ${nodes} daemons up, warm-up (a memory each)`)
    for (let i = 0; i < nodes; i++) { await publish(i, `warm-up of node ${i}`); await sleep(SPACING_MS) }
    await quiet(peers)

    const witnessBefore = peers.map((p) => structuredClone(p.daemon.witness))
    const gossipBefore = peers.map((p) => ({ ...p.daemon.network.stats.gossip }))
    const cpu = process.cpuUsage()
    const start = performance.now()
    progress(`witness cost: ${nodes} daemons, ${memoriesPerNode} memories each`)
    for (let k = 0; k < memoriesPerNode; k++) {
      for (let i = 0; i < nodes; i++) { await publish(i, `memory ${k} of node ${i}`); await sleep(SPACING_MS) }
    }
    await quiet(peers)
    const seconds = (performance.now() - start - QUIET_MS) / 1000
    const used = process.cpuUsage(cpu)
    const memories = nodes * memoriesPerNode
    const delta = (of: (w: WitnessCounters) => number): number => sum(peers, of) - witnessBefore.reduce((t, w) => t + of(w), 0)
    const received = peers.map((p, i) => (p.daemon.network.stats.gossip.accepted - gossipBefore[i]!.accepted) + (p.daemon.network.stats.gossip.ignored - gossipBefore[i]!.ignored))
    return {
      nodes,
      memories,
      requestsPerMemory: delta((w) => w.requests) / memories,
      attestationsPerMemory: delta((w) => w.attestations) / memories,
      drawnAttestationsPerMemory: delta((w) => w.drawn_attestations) / memories,
      privateChecksPerMemory: delta((w) => w.private_checks.asked) / memories,
      privateChecksDuePerMemory: delta((w) => w.private_checks.due) / memories,
      messagesPerNodePerMemory: received.reduce((a, b) => a + b, 0) / nodes / memories,
      cpuMsPerNodePerMemory: (used.user + used.system) / 1000 / nodes / memories,
      seconds
    }
  } finally {
    for (const p of peers) await p.daemon.stop().catch(() => {})
    await rm(root, { recursive: true, force: true })
  }
}

/** Flat within this factor from the smallest network to the largest: messages and CPU per node per memory. */
export const FLAT_TARGET = 1.5
/** Network-wide per memory at most. */
export const REQUESTS_TARGET = 6
export const ATTESTATIONS_TARGET = 10

/** Figure 15 of `npm run bench`: the rounds, and each size's ratio to the smallest. */
export async function benchWitnessCost (options: { sizes: number[], memories: number, progress: (text: string) => void }): Promise<Figure[]> {
  const section = '15. witness cost per memory (real daemons, defaults)'
  options.progress(section)
  const rounds: WitnessCostRound[] = []
  for (const n of options.sizes) {
    const r = await witnessCostRound(n, options.memories, options.progress)
    options.progress(`witness cost: ${JSON.stringify(r)}`)
    rounds.push(r)
  }
  const base = rounds[0]!
  const figures: Figure[] = []
  for (const r of rounds) {
    const detail = { nodes: r.nodes, memories: r.memories, drawnAttestationsPerMemory: round2(r.drawnAttestationsPerMemory), privateChecksPerMemory: round2(r.privateChecksPerMemory), privateChecksDuePerMemory: round2(r.privateChecksDuePerMemory), seconds: round2(r.seconds) }
    const baseline = `${base.nodes} daemons`
    figures.push(
      { section, name: `${r.nodes} daemons: witness requests per memory, network-wide`, value: round2(r.requestsPerMemory), unit: 'requests', baseline: { name: baseline, value: round2(base.requestsPerMemory), unit: 'requests' }, ratio: round2(r.requestsPerMemory / base.requestsPerMemory), target: { text: `≤ ${REQUESTS_TARGET}`, met: r.requestsPerMemory <= REQUESTS_TARGET }, detail },
      { section, name: `${r.nodes} daemons: attestations per memory, network-wide`, value: round2(r.attestationsPerMemory), unit: 'attestations', baseline: { name: baseline, value: round2(base.attestationsPerMemory), unit: 'attestations' }, ratio: round2(r.attestationsPerMemory / base.attestationsPerMemory), target: { text: `≤ ${ATTESTATIONS_TARGET}`, met: r.attestationsPerMemory <= ATTESTATIONS_TARGET } },
      { section, name: `${r.nodes} daemons: gossip messages received per node per memory`, value: round2(r.messagesPerNodePerMemory), unit: 'messages', baseline: { name: baseline, value: round2(base.messagesPerNodePerMemory), unit: 'messages' }, ratio: round2(r.messagesPerNodePerMemory / base.messagesPerNodePerMemory), target: { text: `≤ ${FLAT_TARGET}× ${baseline}`, met: r.messagesPerNodePerMemory <= FLAT_TARGET * base.messagesPerNodePerMemory } },
      { section, name: `${r.nodes} daemons: CPU per node per memory`, value: round2(r.cpuMsPerNodePerMemory), unit: 'ms', baseline: { name: baseline, value: round2(base.cpuMsPerNodePerMemory), unit: 'ms' }, ratio: round2(r.cpuMsPerNodePerMemory / base.cpuMsPerNodePerMemory), target: { text: `≤ ${FLAT_TARGET}× ${baseline}`, met: r.cpuMsPerNodePerMemory <= FLAT_TARGET * base.cpuMsPerNodePerMemory } }
    )
  }
  return figures
}

function round2 (x: number): number { return Math.round(x * 100) / 100 }

/** The markdown table BENCHMARKS.md shows. */
export function witnessCostTable (rounds: readonly WitnessCostRound[]): string {
  const base = rounds[0]!
  const row = (r: WitnessCostRound): string => `| ${r.nodes} | ${r.memories} | ${r.requestsPerMemory.toFixed(2)} | ${r.attestationsPerMemory.toFixed(2)} (${r.drawnAttestationsPerMemory.toFixed(2)} drawn) | ${r.privateChecksPerMemory.toFixed(2)} (${r.privateChecksDuePerMemory.toFixed(2)} due) | ${r.messagesPerNodePerMemory.toFixed(2)} (${(r.messagesPerNodePerMemory / base.messagesPerNodePerMemory).toFixed(2)}×) | ${r.cpuMsPerNodePerMemory.toFixed(1)} (${(r.cpuMsPerNodePerMemory / base.cpuMsPerNodePerMemory).toFixed(2)}×) |`
  return [
    '| daemons | memories | witness requests / memory | attestations / memory | private checks / memory (nodes with one due) | gossip messages / node / memory (× smallest) | CPU ms / node / memory (× smallest) |',
    '|---|---|---|---|---|---|---|',
    ...rounds.map(row)
  ].join('\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { nodes: { type: 'string', default: '8,16,32' }, memories: { type: 'string', default: '3' } } })
  const say = (text: string): void => { process.stderr.write(`[witness-cost] ${text}\n`) }
  const rounds: WitnessCostRound[] = []
  for (const n of values.nodes.split(',').map(Number)) {
    const r = await witnessCostRound(n, Number(values.memories), say)
    say(JSON.stringify(r))
    rounds.push(r)
  }
  process.stdout.write(witnessCostTable(rounds) + '\n')
}
