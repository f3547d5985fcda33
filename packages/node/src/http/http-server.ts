import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { IsnadError } from '../errors/index.js'
import type { Logger } from '../log/index.js'
import { createApiApp, type ApiAppInit } from './app.js'
import { API_HOST } from '../api-access/index.js'
import { EventLog, createApiEventHub, type ApiEventSource } from '../operations/index.js'
import type { NodeOperations } from '../operations/index.js'
import type { StreamClosers } from './routes/event-stream.js'

/** @default 32 — the shortest token accepted: loadOrCreateApiToken's are 43 characters. */
export const MIN_TOKEN_LENGTH = 32

export interface ApiServerInit {
  node: NodeOperations
  /** The bearer token every request must carry (loadOrCreateApiToken). */
  token: string
  /** Only '127.0.0.1' is accepted: the API is a local control surface (http-api §2). @default '127.0.0.1' */
  host?: string
  /** @default 0 — any free port; the chosen one is in `url`. */
  port?: number
  /** New inbox items and attestations for `GET /v1/events`. @default a source that never emits */
  events?: ApiEventSource
  /** Where each request is logged (request-log.ts). @default silentLogger */
  log?: Logger
  /**
   * Names clients may reach the API by besides 127.0.0.1, localhost and [::1] (a hosts-file alias);
   * any other Host is refused (DNS rebinding, host-guard.ts). @default none
   */
  hostNames?: readonly string[]
  /** Answer any Host (an API behind a relay, host-guard.ts). @default false */
  anyHost?: boolean
  /** The authenticated and anonymous request budgets (rate-limit.ts). @default the documented defaults */
  limits?: ApiAppInit['limits']
}

export interface ApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Ends open event streams and connections, then stops listening. Idempotent. */
  close: () => Promise<void>
}

/**
 * Starts the local HTTP API (protocols/http-api.md). USAGE for any host but 127.0.0.1 — not even
 * `localhost`, which may resolve to ::1 or elsewhere — and for a token too short to be a secret.
 */
export async function createApiServer (init: ApiServerInit): Promise<ApiServer> {
  const host = init.host ?? API_HOST
  if (host !== API_HOST) {
    throw new IsnadError('USAGE', `the API listens on ${API_HOST} only, not ${host}: it is a local control surface`)
  }
  if (init.token.length < MIN_TOKEN_LENGTH) {
    throw new IsnadError('USAGE', `an API token has at least ${MIN_TOKEN_LENGTH} characters`)
  }
  const events = new EventLog(init.events ?? createApiEventHub())
  const closers: StreamClosers = new Set()
  let listening: number | undefined
  const app = createApiApp({
    node: init.node,
    token: init.token,
    events,
    closers,
    ...(init.log === undefined ? {} : { log: init.log }),
    port: () => listening,
    ...(init.hostNames === undefined ? {} : { hostNames: init.hostNames }),
    anyHost: init.anyHost === true,
    ...(init.limits === undefined ? {} : { limits: init.limits })
  })
  let server: Server
  try {
    server = await listen(app.fetch, host, init.port ?? 0)
  } catch (cause) {
    events.close()
    const address = `${host}:${init.port ?? 0}`
    if ((cause as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new IsnadError('ADDRESS_IN_USE', `the API address ${address} is in use by another process`, { cause, details: { address } })
    }
    throw new IsnadError('IO_ERROR', `cannot listen on ${address}`, { cause })
  }
  const { port } = server.address() as AddressInfo
  listening = port
  let closing: Promise<void> | undefined
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      closing ??= new Promise<void>((resolve) => {
        events.close()
        for (const close of [...closers]) close()
        server.close(() => { resolve() })
        // Keep-alive sockets would hold close() until they time out.
        server.closeIdleConnections()
        setImmediate(() => { server.closeAllConnections() })
      })
      await closing
    }
  }
}

/** Serves `fetch` (a hono app's) on hostname:port; resolves once listening, rejects if it cannot. */
export async function listen (fetch: (request: Request) => Response | Promise<Response>, hostname: string, port: number): Promise<Server> {
  return await new Promise<Server>((resolve, reject) => {
    const server = serve({ fetch, hostname, port }) as Server
    server.once('error', reject)
    server.once('listening', () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}
