import type { Context, MiddlewareHandler } from 'hono'
import { IsnadError } from '../errors/index.js'
import { ApiError } from '../api-access/index.js'

/*
 * DNS rebinding and cross-origin requests (http-api §2). A web page can make a name it controls
 * resolve to 127.0.0.1; the browser then sends the page's requests to the API with that name in
 * `Host`, and lets the page read the answers as same-origin. So a request whose Host is not one of
 * the node's own names with the API's port is refused before anything else reads it, and a request a
 * browser marks as coming from another origin is refused whatever token it carries.
 */

/** The names the API always answers to: the address it listens on and the loopback names of this machine. */
export const API_HOST_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const

/** A host name (RFC 1123 labels), an IPv4 address, or a bracketed IPv6 address; no port. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/

/** USAGE for a configured name that cannot be a Host header's name part. */
export function parseApiHostNames (names: readonly string[]): string[] {
  return names.map((name) => {
    const lower = name.toLowerCase()
    if (!HOST_NAME.test(lower) || lower.length > 253) throw new IsnadError('USAGE', `not a host name for the API: ${JSON.stringify(name)} (no port, IPv6 in brackets)`)
    return lower
  })
}

export interface HostGuardInit {
  /** Names clients may use besides API_HOST_NAMES (a hosts-file alias, `isnad start --api-host-name`). */
  names?: readonly string[]
  /** The port the API listens on; undefined before it listens (any port is then accepted). */
  port: () => number | undefined
  /**
   * Answer any Host: for an API reached only through a relay that forwards bytes as they come (the
   * simulator's node supervisor), so the Host names the relay, not the API. @default false
   */
  anyHost?: boolean
}

export interface HostGuard {
  /** Refuses a wrong Host (421 HOST_REFUSED) and a cross-origin request (403 ORIGIN_REFUSED). */
  middleware: MiddlewareHandler
  /** Whether a browser marked the request as coming from another origin (the rate limiter's budget). */
  isCrossOrigin: (c: Context) => boolean
}

interface SocketBindings { incoming?: unknown }

export function createHostGuard (init: HostGuardInit): HostGuard {
  const names = new Set([...API_HOST_NAMES, ...parseApiHostNames(init.names ?? [])])
  const isOwnHost = (host: string): boolean => {
    const match = /^(.+):(\d{1,5})$/.exec(host.toLowerCase())
    if (match === null) return false
    const port = init.port()
    return names.has(match[1] as string) && (port === undefined || Number(match[2]) === port)
  }
  const isCrossOrigin = (c: Context): boolean => {
    const origin = c.req.header('origin')
    if (origin === undefined) return false
    // `null` (a sandboxed frame, a file: page) and any other scheme are foreign.
    return !origin.toLowerCase().startsWith('http://') || !isOwnHost(origin.slice('http://'.length))
  }
  const middleware: MiddlewareHandler = async (c, next) => {
    const host = c.req.header('host')
    // In-process requests (tests, app.request) come with neither a socket nor a Host header.
    const viaSocket = (c.env as SocketBindings | undefined)?.incoming !== undefined
    if (init.anyHost !== true && (host !== undefined || viaSocket) && (host === undefined || !isOwnHost(host))) {
      c.header('Connection', 'close')
      throw new ApiError('HOST_REFUSED', `the API answers to ${[...names].join(', ')} with its own port only, not ${JSON.stringify(host ?? '')}`)
    }
    if (isCrossOrigin(c)) {
      c.header('Connection', 'close')
      throw new ApiError('ORIGIN_REFUSED', 'requests from web pages of other origins are refused')
    }
    await next()
  }
  return { middleware, isCrossOrigin }
}
