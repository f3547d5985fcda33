import type { MiddlewareHandler } from 'hono'
import { IsnadError } from '../errors/index.js'
import { RateLimiter } from '../net/limits.js'

/*
 * Per-client request rate of the HTTP API (docs/limits.md). The API listens on 127.0.0.1 only and
 * wants a bearer token, so its callers are local processes; the limit keeps one runaway or hostile
 * local client (a loop, a token-guessing script) from starving the node and its other clients.
 */

/** @default 200 — requests per second per client address, sustained. */
export const API_REQUESTS_PER_SECOND = 200
/** @default 1000 — requests a client may make in one burst (a CLI script, the dashboard's first load). */
export const API_REQUEST_BURST = 1000

interface SocketBindings { incoming?: { socket?: { remoteAddress?: string } } }

/**
 * Refuses requests over the client's rate with 429 RATE_LIMITED and Retry-After, before
 * authentication and before any body is read. The client is its remote address (in-process
 * requests, which have none, share one bucket).
 */
export function rateLimit (limiter = new RateLimiter(API_REQUESTS_PER_SECOND, API_REQUEST_BURST)): MiddlewareHandler {
  return async (c, next) => {
    const client = (c.env as SocketBindings | undefined)?.incoming?.socket?.remoteAddress ?? 'in-process'
    if (!limiter.take(client)) {
      c.header('Retry-After', String(Math.max(1, limiter.retryAfterSeconds(client))))
      c.header('Connection', 'close') // the unread body must not be taken for the next request
      throw new IsnadError('RATE_LIMITED', `more than ${API_REQUESTS_PER_SECOND} requests per second from this client; retry later`)
    }
    await next()
  }
}
