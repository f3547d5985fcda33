import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { mkdir, open, rename } from 'node:fs/promises'
import { networkInterfaces } from 'node:os'
import { promisify } from 'node:util'
import { API_TOKEN_MODE, apiTokenPath, createLogger, type Daemon, initHome, nodePaths, startDaemon, streamSeed } from 'isnad/engine'
import { CONTROL_PORT, discoverNode, discoverNodes } from './container-discovery.js'
import { sleep } from './mesh.js'
import { NodeSupervisor } from './node-supervisor.js'
import { createPlan, linkConditionsOf, type Scenario } from '../scenario/index.js'

/*
 * One node of the docker runner (`isnad sim node`, the compose file's node services). It is `isnad
 * start` plus what a container network needs: the address to announce, a supervisor
 * (node-supervisor.ts) that exposes the 127.0.0.1-only HTTP API to the project's network (port
 * API_RELAY_PORT; the bearer token still guards it, and the network is internal to the simulation),
 * lets the driver stop and restart the daemon and tells who asks how to reach the node
 * (CONTROL_PORT, GET /sim/info, same token), and the scenario's latency and loss (tc netem on eth0,
 * else userland link shaping). It finds the bootstrap node and its planned neighbours by their
 * service names (discovery.ts), then dials its planned links (plan.ts). Nothing is shared on disk,
 * so the services may run on different hosts of a Swarm.
 */

export const LIBP2P_PORT = 4501
export const API_RELAY_PORT = 4600
export { CONTROL_PORT }
const run = promisify(execFile)

export interface ContainerNodeOptions {
  home: string
  name: string
  /** This node's index in the scenario; absent for the bootstrap node. */
  index?: number
  scenario: Scenario
  /** The project's token: every node's API token, so the driver can reach them all. */
  token: string
  log: (line: string) => void
  /** The service name of the bootstrap node. @default 'bootstrap' */
  bootstrapName?: string
}
/**
 * The address the other containers reach this one at: what its own service name resolves to on the
 * project's network (a Swarm task also sits on docker_gwbridge, whose address the others cannot
 * reach), retried while the name is not in DNS yet; else the first non-loopback IPv4 address.
 */
async function containerIp (name: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = await lookup(name, { family: 4 }).catch(() => null)
    if (found !== null && !found.address.startsWith('127.')) return found.address
    await sleep(500)
  }
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

/** Installs the project's token as the daemon's API token (mode 0600, written whole, as loadOrCreateApiToken would). */
async function installToken (dataDir: string, token: string): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const path = apiTokenPath(dataDir)
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await open(temporary, 'w', API_TOKEN_MODE)
  try {
    await handle.writeFile(`${token}\n`)
    await handle.chmod(API_TOKEN_MODE)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, path)
}

export function nodeName (index: number): string {
  return `node-${index}`
}

export async function runContainerNode (options: ContainerNodeOptions): Promise<NodeSupervisor> {
  const netem = await applyNetem(options.scenario, options.log)
  // Without netem (no sch_netem in the kernel, no NET_ADMIN), the daemon shapes its own links.
  const link = netem === null ? undefined : linkConditionsOf(options.scenario)
  const agent = (await initHome(options.home)).defaultKey.did
  const token = options.token
  await installToken(nodePaths(options.home).data, token)
  const waiting = (name: string, problem: string): void => { options.log(`waiting for ${name} (${problem})`) }
  const bootstrap = options.index === undefined ? [] : (await discoverNode(options.bootstrapName ?? 'bootstrap', { token, waiting })).multiaddrs
  const ip = await containerIp(options.name)
  const plan = options.index === undefined ? undefined : createPlan(options.scenario)
  const supervisor = await NodeSupervisor.start({
    start: async () => await startDaemon({
      home: options.home,
      listen: [`/ip4/0.0.0.0/tcp/${LIBP2P_PORT}`],
      announce: [`/ip4/${ip}/tcp/${LIBP2P_PORT}`],
      bootstrap,
      // The driver reaches the API through the supervisor's relay, by this container's name or address.
      apiBehindRelay: true,
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
  supervisor.publish({
    url: supervisor.apiUrl, token, peerId: daemon.peerId, multiaddrs: [`/ip4/${ip}/tcp/${LIBP2P_PORT}/p2p/${daemon.peerId}`], agent,
    control: supervisor.controlUrl,
    ...(notes.length === 0 ? {} : { notes })
  })
  if (options.index !== undefined && plan !== undefined) {
    // The planned links this node dials, once each target answers.
    const targets = plan.edges.filter(([from]) => from === options.index).map(([, to]) => nodeName(to))
    const infos = await discoverNodes(targets, { token, waiting })
    for (const [k, target] of targets.entries()) {
      const address = infos[k]?.multiaddrs[0]
      if (address !== undefined) await daemon.network.dial(address).catch((err: unknown) => { options.log(`dial ${target}: ${String(err)}`) })
      await sleep(250) // libp2p refuses more than 5 inbound connections per second from one IP
    }
  }
  return supervisor
}
