import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import { connect, createServer, type AddressInfo, type Server } from 'node:net'
import { tokensEqual } from '../api/index.js'
import type { Daemon } from '../daemon/index.js'

/*
 * The process around one node of the docker runner (container-node.ts): it keeps the daemon's API
 * reachable at one address while the daemon stops and starts again, and takes the orders a person
 * at the machine would carry out — leave the network (a graceful stop, the home kept) and join it
 * again (a restart on the same home: same keys, same data, same API token). Everything else the
 * driver does goes through the node's own HTTP API (peers connect|disconnect|sync, network stats).
 *
 *   API relay (apiPort):     a TCP relay to the daemon's 127.0.0.1-only API, re-aimed at each restart.
 *   control (controlPort):   POST /sim/leave, POST /sim/join, GET /sim/status; bearer token of the API.
 */

export interface NodeSupervisorOptions {
  /** Starts the daemon on its home; called again for each join. */
  start: () => Promise<Daemon>
  token: string
  /** The interface both servers listen on (0.0.0.0 in a container, 127.0.0.1 in tests). */
  host: string
  /** 0: any free port. */
  apiPort: number
  controlPort: number
  /** The address others reach the servers at (the container's IP). @default host */
  advertise?: string
}

export interface NodeStatusReport { online: boolean }

export class NodeSupervisor {
  private daemon: Daemon | null = null
  private transition: Promise<void> = Promise.resolve()
  private relay: Server | undefined
  private control: HttpServer | undefined

  private constructor (private readonly options: NodeSupervisorOptions) {}

  static async start (options: NodeSupervisorOptions): Promise<NodeSupervisor> {
    const supervisor = new NodeSupervisor(options)
    supervisor.daemon = await options.start()
    supervisor.relay = await listening(createServer((socket) => { supervisor.pipe(socket) }), options.apiPort, options.host)
    supervisor.control = await listening(createHttpServer((req, res) => { void supervisor.serve(req, res) }), options.controlPort, options.host)
    return supervisor
  }

  /** The daemon while it runs. */
  get current (): Daemon | null {
    return this.daemon
  }

  get apiUrl (): string { return this.urlOf(this.relay) }
  get controlUrl (): string { return this.urlOf(this.control) }

  /** Leaves the network: the daemon stops gracefully; its home stays. */
  async leave (): Promise<void> {
    await this.serialised(async () => {
      const daemon = this.daemon
      this.daemon = null
      await daemon?.stop()
    })
  }

  /** Joins again: the daemon restarts on the same home. */
  async join (): Promise<void> {
    await this.serialised(async () => {
      this.daemon ??= await this.options.start()
    })
  }

  async close (): Promise<void> {
    await this.leave()
    await Promise.all([this.relay, this.control].map(async (server) => {
      await new Promise<void>((resolve) => { server === undefined ? resolve() : server.close(() => { resolve() }) })
    }))
  }

  private async serialised (step: () => Promise<void>): Promise<void> {
    const next = this.transition.then(step)
    this.transition = next.catch(() => {})
    await next
  }

  private pipe (socket: import('node:net').Socket): void {
    const daemon = this.daemon
    if (daemon === null) {
      socket.destroy() // the node has left: its API is unreachable, as a stopped daemon's is
      return
    }
    const upstream = connect(Number(new URL(daemon.url).port), '127.0.0.1')
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  }

  private async serve (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')
    if (match?.[1] === undefined || !tokensEqual(match[1], this.options.token)) {
      reply(401, { error: { code: 'UNAUTHORIZED', message: 'missing or wrong bearer token' } })
      return
    }
    req.resume() // no body is read
    try {
      if (req.method === 'POST' && req.url === '/sim/leave') await this.leave()
      else if (req.method === 'POST' && req.url === '/sim/join') await this.join()
      else if (!(req.method === 'GET' && req.url === '/sim/status')) {
        reply(404, { error: { code: 'ROUTE_NOT_FOUND', message: 'POST /sim/leave, POST /sim/join, GET /sim/status' } })
        return
      }
      reply(200, { online: this.daemon !== null } satisfies NodeStatusReport)
    } catch (err) {
      reply(500, { error: { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) } })
    }
  }

  private urlOf (server: Server | HttpServer | undefined): string {
    const port = (server?.address() as AddressInfo | null)?.port
    return `http://${this.options.advertise ?? this.options.host}:${port ?? 0}`
  }
}

async function listening<S extends Server | HttpServer> (server: S, port: number, host: string): Promise<S> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => { server.off('error', reject); resolve() })
  })
  return server
}

/** The driver's side of the control channel. */
export async function orderNode (controlUrl: string, token: string, order: 'leave' | 'join' | 'status'): Promise<NodeStatusReport> {
  const response = await fetch(`${controlUrl}/sim/${order}`, {
    method: order === 'status' ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(120_000)
  })
  const body = await response.json() as NodeStatusReport & { error?: { message: string } }
  if (!response.ok) throw new Error(`${order} at ${controlUrl}: ${body.error?.message ?? `HTTP ${response.status}`}`)
  return body
}
