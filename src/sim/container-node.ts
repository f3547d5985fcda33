import { execFile } from 'node:child_process'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { loadOrCreateApiToken } from '../api/index.js'
import { startDaemon, type Daemon } from '../daemon/index.js'
import { createLogger } from '../log/index.js'
import { initHome, nodePaths } from '../node/index.js'
import { streamSeed } from '../net/index.js'
import { sleep } from './mesh.js'
import { NodeSupervisor } from './node-supervisor.js'
import { createPlan } from './plan.js'
import type { SimNodeInfo } from './pool.js'
import { linkConditionsOf, type Scenario } from './scenario.js'

/*
 * One node of the docker runner (`isnad sim node`, the compose file's node services). It is `isnad
 * start` plus what a container network needs: the address to announce, a supervisor
 * (node-supervisor.ts) that exposes the 127.0.0.1-only HTTP API to the compose network (port
 * API_RELAY_PORT; the bearer token still guards it, and the network is internal to the simulation)
 * and lets the driver stop and restart the daemon (CONTROL_PORT, same token), the scenario's latency
 * and loss (tc netem on eth0, else userland link shaping), and a node file in the shared volume
 * telling the driver how to reach it. Then it dials its planned links (plan.ts).
 */

export const LIBP2P_PORT = 4501
export const API_RELAY_PORT = 4600
/** The supervisor's control channel (leave, join): node-supervisor.ts. */
export const CONTROL_PORT = 4601
const run = promisify(execFile)
const NODE_FILES_TIMEOUT_MS = 300_000

export interface ContainerNodeOptions {
  home: string
  /** Shared directory of node files (`<name>.json`). */
  nodesDir: string
  name: string
  /** This node's index in the scenario; absent for the bootstrap node. */
  index?: number
  scenario: Scenario
  log: (line: string) => void
}

function containerIp (): string {
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    if (name === 'lo') continue
    const v4 = addrs?.find((a) => a.family === 'IPv4' && !a.internal)
    if (v4 !== undefined) return v4.address
  }
  return '127.0.0.1'
}

/** tc netem on eth0 for the scenario's latency and loss (needs NET_ADMIN, iproute2 and the kernel's sch_netem); a note when it fails. */
async function applyNetem (scenario: Scenario, log: (line: string) => void): Promise<string | null> {
  const { latencyMs, jitterMs, lossPercent } = scenario.network
  if (linkConditionsOf(scenario) === undefined) return null
  const args = ['qdisc', 'add', 'dev', 'eth0', 'root', 'netem', 'delay', `${latencyMs}ms`, ...(jitterMs > 0 ? [`${jitterMs}ms`] : []), 'loss', `${lossPercent}%`]
  try {
    await run('tc', args)
    log(`netem: ${args.slice(5).join(' ')}`)
    return null
  } catch (err) {
    const note = `netem not applied (tc ${args.join(' ')}): ${(err instanceof Error ? err.message : String(err)).split('\n').slice(-2).join(' ').trim()}`
    log(note)
    return note
  }
}

/** Writes a node file atomically (the driver polls the directory). */
async function publishInfo (nodesDir: string, name: string, info: SimNodeInfo): Promise<void> {
  const path = join(nodesDir, `${name}.json`)
  await writeFile(`${path}.tmp`, JSON.stringify(info))
  await rename(`${path}.tmp`, path)
}

export async function readNodeFiles (nodesDir: string): Promise<Map<string, SimNodeInfo>> {
  const files = (await readdir(nodesDir).catch(() => [])).filter((f) => f.endsWith('.json'))
  const infos = new Map<string, SimNodeInfo>()
  for (const file of files) infos.set(file.slice(0, -5), JSON.parse(await readFile(join(nodesDir, file), 'utf8')) as SimNodeInfo)
  return infos
}

/** Waits until the node files of `names` are all present. */
export async function waitForNodeFiles (nodesDir: string, names: readonly string[]): Promise<Map<string, SimNodeInfo>> {
  const until = Date.now() + NODE_FILES_TIMEOUT_MS
  for (;;) {
    const infos = await readNodeFiles(nodesDir)
    if (names.every((n) => infos.has(n))) return infos
    if (Date.now() > until) throw new Error(`node files missing after ${NODE_FILES_TIMEOUT_MS / 1000} s: ${names.filter((n) => !infos.has(n)).join(', ')}`)
    await sleep(500)
  }
}

export function nodeName (index: number): string {
  return `node-${index}`
}

export async function runContainerNode (options: ContainerNodeOptions): Promise<NodeSupervisor> {
  const netem = await applyNetem(options.scenario, options.log)
  // Without netem (no sch_netem in the kernel, no NET_ADMIN), the daemon shapes its own links.
  const link = netem === null ? undefined : linkConditionsOf(options.scenario)
  const agent = (await initHome(options.home)).defaultKey.did
  const bootstrap = options.index === undefined ? [] : [...(await waitForNodeFiles(options.nodesDir, ['bootstrap'])).get('bootstrap')?.multiaddrs ?? []]
  const ip = containerIp()
  const token = await loadOrCreateApiToken(nodePaths(options.home).data)
  const supervisor = await NodeSupervisor.start({
    start: async () => await startDaemon({
      home: options.home,
      listen: [`/ip4/0.0.0.0/tcp/${LIBP2P_PORT}`],
      announce: [`/ip4/${ip}/tcp/${LIBP2P_PORT}`],
      bootstrap,
      // A container's stderr is one of many in the run: its warnings and errors only.
      logger: createLogger({ level: 'warn', write: (line) => { options.log(line.trimEnd()) } }),
      ...(link === undefined ? {} : { linkConditions: { ...link, seed: streamSeed(link.seed, options.index ?? -1) } })
    }),
    token,
    host: '0.0.0.0',
    advertise: ip,
    apiPort: API_RELAY_PORT,
    controlPort: CONTROL_PORT
  })
  const daemon = supervisor.current as Daemon
  const notes = netem === null ? [] : [netem, ...(link === undefined ? [] : [`latency and loss applied by userland link shaping instead (${link.latencyMs} ± ${link.jitterMs} ms, ${link.lossPercent}% loss)`])]
  await publishInfo(options.nodesDir, options.name, {
    url: supervisor.apiUrl, token, peerId: daemon.peerId, multiaddrs: [`/ip4/${ip}/tcp/${LIBP2P_PORT}/p2p/${daemon.peerId}`], agent,
    control: supervisor.controlUrl,
    ...(notes.length === 0 ? {} : { notes })
  })
  if (options.index !== undefined) {
    // The planned links this node dials, once every node has published its address.
    const plan = createPlan(options.scenario)
    const targets = plan.edges.filter(([from]) => from === options.index).map(([, to]) => nodeName(to))
    const infos = await waitForNodeFiles(options.nodesDir, targets)
    for (const target of targets) {
      const address = infos.get(target)?.multiaddrs[0]
      if (address !== undefined) await daemon.network.dial(address).catch((err: unknown) => { options.log(`dial ${target}: ${String(err)}`) })
      await sleep(250) // libp2p refuses more than 5 inbound connections per second from one IP
    }
  }
  return supervisor
}
