import { execFile } from 'node:child_process'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createServer, connect, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { readApiToken } from '../api/index.js'
import { startDaemon, type Daemon } from '../daemon/index.js'
import { initHome, nodePaths } from '../node/index.js'
import { sleep } from './mesh.js'
import { createPlan } from './plan.js'
import type { SimNodeInfo } from './pool.js'
import type { Scenario } from './scenario.js'

/*
 * One node of the docker runner (`isnad sim node`, the compose file's node services). It is `isnad
 * start` plus what a container network needs: the address to announce, a relay that exposes the
 * 127.0.0.1-only HTTP API to the compose network (port API_RELAY_PORT; the bearer token still guards
 * it, and the network is internal to the simulation), optional tc netem on eth0, and a node file in
 * the shared volume telling the driver how to reach it. Then it dials its planned links (plan.ts).
 */

export const LIBP2P_PORT = 4501
export const API_RELAY_PORT = 4600
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
  if (latencyMs === 0 && lossPercent === 0) return null
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

function relay (port: number, target: number): Server {
  return createServer((socket) => {
    const upstream = connect(target, '127.0.0.1')
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  }).listen(port, '0.0.0.0')
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

export async function runContainerNode (options: ContainerNodeOptions): Promise<Daemon> {
  const netem = await applyNetem(options.scenario, options.log)
  const agent = (await initHome(options.home)).defaultKey.did
  const bootstrap = options.index === undefined ? [] : [...(await waitForNodeFiles(options.nodesDir, ['bootstrap'])).get('bootstrap')?.multiaddrs ?? []]
  const ip = containerIp()
  const daemon = await startDaemon({
    home: options.home,
    listen: [`/ip4/0.0.0.0/tcp/${LIBP2P_PORT}`],
    announce: [`/ip4/${ip}/tcp/${LIBP2P_PORT}`],
    bootstrap,
    log: options.log
  })
  const apiPort = Number(new URL(daemon.url).port)
  relay(API_RELAY_PORT, apiPort)
  const token = await readApiToken(nodePaths(options.home).data)
  await publishInfo(options.nodesDir, options.name, {
    url: `http://${ip}:${API_RELAY_PORT}`, token, peerId: daemon.peerId, multiaddrs: [`/ip4/${ip}/tcp/${LIBP2P_PORT}/p2p/${daemon.peerId}`], agent,
    ...(netem === null ? {} : { notes: [netem] })
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
  return daemon
}
