import { Hono } from 'hono'
import { z } from 'zod'
import type { Server as HttpServer } from 'node:http'
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { ApiError, type Daemon, errorResponseOf, IsnadError, listen, requireBearer } from 'isnad/engine'
import type { SimNodeInfo } from './pool.js'

/*
 * The process around one node of the docker runner (container-node.ts): it keeps the daemon's API
 * reachable at one address while the daemon stops and starts again, and takes the orders a person
 * at the machine would carry out — leave the network (a graceful stop, the home kept) and join it
 * again (a restart on the same home: same keys, same data, same API token). Everything else the
 * driver does goes through the node's own HTTP API (peers connect|disconnect|sync, network stats).
 *
 *   API relay (apiPort):     a TCP relay to the daemon's 127.0.0.1-only API, re-aimed at each restart.
 *   control (controlPort):   POST /sim/leave, POST /sim/join, GET /sim/status, and GET /sim/info (how
 *                            to reach the node, once published: the discovery step of the compose
 *                            project, container-node.ts); bearer token of the API.
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
  private info: SimNodeInfo | undefined

  private constructor (private readonly options: NodeSupervisorOptions) {}

  static async start (options: NodeSupervisorOptions): Promise<NodeSupervisor> {
    const supervisor = new NodeSupervisor(options)
    supervisor.daemon = await options.start()
    supervisor.relay = await listening(createServer((socket) => { supervisor.pipe(socket) }), options.apiPort, options.host)
    supervisor.control = await listen(supervisor.controlApp().fetch, options.host, options.controlPort)
    return supervisor
  }

  /** The daemon while it runs. */
  get current (): Daemon | null {
    return this.daemon
  }

  get apiUrl (): string { return this.urlOf(this.relay) }
  get controlUrl (): string { return this.urlOf(this.control) }

  /** What GET /sim/info answers from now on: how the driver and the other nodes reach this node. */
  publish (info: SimNodeInfo): void {
    this.info = info
  }

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

  private pipe (socket: Socket): void {
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

  /** The control channel: the API's bearer token, three routes, errors in the API's JSON shape. */
  private controlApp (): Hono {
    const status = (): NodeStatusReport => ({ online: this.daemon !== null })
    const app = new Hono()
    app.use('*', requireBearer(this.options.token))
    app.post('/sim/leave', async (c) => { await this.leave(); return c.json(status()) })
    app.post('/sim/join', async (c) => { await this.join(); return c.json(status()) })
    app.get('/sim/status', (c) => c.json(status()))
    app.get('/sim/info', (c) => {
      if (this.info === undefined) throw new IsnadError('NOT_FOUND', 'this node has not published its addresses yet')
      return c.json(this.info)
    })
    app.notFound(() => { throw new ApiError('ROUTE_NOT_FOUND', 'POST /sim/leave, POST /sim/join, GET /sim/status, GET /sim/info') })
    app.onError((err, c) => {
      const { status: code, body } = errorResponseOf(err)
      // A daemon failing to stop or start is reported with its own message, for the driver's log.
      if (body.error.code === 'INTERNAL' && err instanceof Error) body.error.message = err.message
      return c.json(body, code)
    })
    return app
  }

  private urlOf (server: Server | HttpServer | undefined): string {
    const port = (server?.address() as AddressInfo | null)?.port
    return `http://${this.options.advertise ?? this.options.host}:${port ?? 0}`
  }
}

async function listening (server: Server, port: number, host: string): Promise<Server> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => { server.off('error', reject); resolve() })
  })
  return server
}

const NodeStatusReportSchema = z.object({ online: z.boolean() })
const ErrorReplySchema = z.object({ error: z.object({ message: z.string() }) })

/** The driver's side of the control channel. */
export async function orderNode (controlUrl: string, token: string, order: 'leave' | 'join' | 'status'): Promise<NodeStatusReport> {
  const response = await fetch(`${controlUrl}/sim/${order}`, {
    method: order === 'status' ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(120_000)
  })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) throw new Error(`${order} at ${controlUrl}: ${ErrorReplySchema.safeParse(body).data?.error.message ?? `HTTP ${response.status}`}`)
  const report = NodeStatusReportSchema.safeParse(body)
  if (!report.success) throw new Error(`${order} at ${controlUrl}: not a node status: ${JSON.stringify(body)}`)
  return report.data
}
