import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { API_TOKEN_PATTERN, IsnadError } from 'isnad/engine'
import { sleep } from './mesh.js'
import type { SimNodeInfo } from './pool.js'

/*
 * How the containers of a compose project or Swarm stack find each other (docs/simulation.md,
 * "Docker"): by service name over the project's network, nothing shared on disk. Each node's
 * supervisor answers GET /sim/info on its control port with its HTTP API, libp2p address and agent
 * (node-supervisor.ts), behind the project's token; a service name resolves, by DNS, to its one
 * container (Swarm services use `endpoint_mode: dnsrr`, so the name is the task's own address, not
 * a virtual IP). A node asks the bootstrap node and its planned neighbours; the driver asks them all.
 */

/** The supervisor's control channel (leave, join, info): node-supervisor.ts. */
export const CONTROL_PORT = 4601
/** @default 300 s — a Swarm may pull images and schedule tasks for minutes before a node answers. */
export const DISCOVERY_TIMEOUT_MS = 300_000
const RETRY_MS = 500

const SimNodeInfoSchema = z.object({
  url: z.string().url(),
  token: z.string(),
  peerId: z.string().min(1),
  multiaddrs: z.array(z.string()),
  agent: z.string().startsWith('did:key:'),
  notes: z.array(z.string()).optional(),
  control: z.string().url().optional()
})

/** The project's shared token (a secret file of the compose project); USAGE when it is not one. */
export async function readProjectToken (path: string): Promise<string> {
  let token: string
  try {
    token = (await readFile(path, 'utf8')).trim()
  } catch (cause) {
    throw new IsnadError('NOT_FOUND', `cannot read the simulation token ${path}`, { cause })
  }
  if (!API_TOKEN_PATTERN.test(token)) throw new IsnadError('USAGE', `${path} does not hold an API token (43 base64url characters)`)
  return token
}

export interface DiscoverOptions {
  token: string
  /** The control channel's port. @default CONTROL_PORT */
  port?: number
  timeoutMs?: number
  /** Called once per node that had to be waited for, with what was last wrong. */
  waiting?: (name: string, problem: string) => void
}

/** One node's info, by its host name (a service name), retried until it answers or the timeout passes. */
export async function discoverNode (name: string, options: DiscoverOptions): Promise<SimNodeInfo> {
  const url = `http://${name}:${options.port ?? CONTROL_PORT}/sim/info`
  const until = Date.now() + (options.timeoutMs ?? DISCOVERY_TIMEOUT_MS)
  let problem = ''
  let told = false
  for (;;) {
    try {
      const response = await fetch(url, { headers: { authorization: `Bearer ${options.token}` }, signal: AbortSignal.timeout(10_000) })
      const body: unknown = await response.json().catch(() => null)
      if (response.ok) {
        const info = SimNodeInfoSchema.safeParse(body)
        if (info.success) return info.data as SimNodeInfo
        throw new IsnadError('SCHEMA_INVALID', `${url} answered something other than a node's info`)
      }
      // 401 is final: the node runs with another token (another project's node on the same name).
      if (response.status === 401) throw new IsnadError('USAGE', `${url} refused the project's token: a node of another project?`)
      problem = `HTTP ${response.status}`
    } catch (err) {
      if (err instanceof IsnadError) throw err
      problem = causeOf(err)
    }
    if (Date.now() > until) throw new IsnadError('PEER_UNREACHABLE', `${name} did not answer ${url} within ${Math.round((options.timeoutMs ?? DISCOVERY_TIMEOUT_MS) / 1000)} s (last: ${problem})`)
    if (!told) { options.waiting?.(name, problem); told = true }
    await sleep(RETRY_MS)
  }
}

/** Every node's info, in the order of `names`. */
export async function discoverNodes (names: readonly string[], options: DiscoverOptions): Promise<SimNodeInfo[]> {
  return await Promise.all(names.map(async (name) => await discoverNode(name, options)))
}

/** fetch's TypeError hides the reason (ENOTFOUND: not in DNS yet; ECONNREFUSED: not listening yet) in `cause`. */
function causeOf (err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : undefined
  return code ?? (cause instanceof Error ? cause.message : String(cause))
}
