import type { Context, MiddlewareHandler } from 'hono'
import { IsnadError } from '../errors/index.js'
import { RateLimiter } from '../net/limits/limits.js'
import { tokensEqual } from '../api-access/index.js'

/*
 * Request rates of the HTTP API (docs/limits.md). Every local client comes from
 * 127.0.0.1, so a budget per remote address let one process without the token (a token-guessing
 * loop, a web page making no-cors requests) use up the budget of the CLI next to it. Budgets are per
 * credential instead: requests carrying the node's token share the authenticated budget; everything
 * else (no token, a wrong token, a request from another web origin) draws from a small budget of its
 * own, which can never take from the authenticated one.
 */

/** @default 200 — requests per second with the node's token, sustained. */
export const API_REQUESTS_PER_SECOND = 200
/** @default 1000 — requests with the token in one burst (a CLI script, the dashboard's first load). */
export const API_REQUEST_BURST = 1000
/**
 * @default 20 — requests per second without a valid token (or from another origin), all such
 * clients together: enough for the dashboard's static files and a client finding out its token is
 * stale, too little for a guessing loop to matter.
 */
export const API_ANONYMOUS_REQUESTS_PER_SECOND = 20
/** @default 40 — anonymous requests in one burst. */
export const API_ANONYMOUS_REQUEST_BURST = 40

export interface RateLimitInit {
  /** The node's token; requests presenting it draw from `authenticated`. Absent: every request is anonymous. */
  token?: string
  /** @default API_REQUESTS_PER_SECOND / API_REQUEST_BURST */
  authenticated?: RateLimiter
  /** @default API_ANONYMOUS_REQUESTS_PER_SECOND / API_ANONYMOUS_REQUEST_BURST */
  anonymous?: RateLimiter
  /** Whether the request comes from a web page of another origin (host-guard.ts); such requests are anonymous. */
  isCrossOrigin?: (c: Context) => boolean
}

/** The budget a request draws from: the token's, or the anonymous one (the dashboard's files apart). */
export type RequestBudget = 'token' | 'anonymous' | 'anonymous-dashboard'

/** The presented bearer token, if the Authorization header has the RFC 6750 form. */
export function bearerOf (c: Context): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '')?.[1]
}

function budgetOf (c: Context, init: RateLimitInit): RequestBudget {
  const presented = bearerOf(c)
  const valid = presented !== undefined && init.token !== undefined && tokensEqual(presented, init.token)
  if (valid && init.isCrossOrigin?.(c) !== true) return 'token'
  // The dashboard's own files are fetched without the token; a flood on /v1 does not keep them from loading.
  return c.req.path.startsWith('/dashboard') ? 'anonymous-dashboard' : 'anonymous'
}

/**
 * Refuses requests over their budget's rate with 429 RATE_LIMITED and Retry-After, before
 * authentication and before any body is read (the token is compared here only to pick the budget;
 * requireBearer still decides).
 */
export function rateLimit (init: RateLimitInit = {}): MiddlewareHandler {
  const authenticated = init.authenticated ?? new RateLimiter(API_REQUESTS_PER_SECOND, API_REQUEST_BURST)
  const anonymous = init.anonymous ?? new RateLimiter(API_ANONYMOUS_REQUESTS_PER_SECOND, API_ANONYMOUS_REQUEST_BURST)
  return async (c, next) => {
    const budget = budgetOf(c, init)
    const limiter = budget === 'token' ? authenticated : anonymous
    if (!limiter.take(budget)) {
      c.header('Retry-After', String(Math.max(1, limiter.retryAfterSeconds(budget))))
      c.header('Connection', 'close') // the unread body must not be taken for the next request
      const who = budget === 'token' ? 'with this token' : 'without a valid token'
      throw new IsnadError('RATE_LIMITED', `too many requests ${who}; retry later`, { details: { budget } })
    }
    await next()
  }
}
