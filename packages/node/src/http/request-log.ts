import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { silentLogger, type LogLevel, type Logger } from '../log/index.js'
import { errorResponseOf } from './errors.js'

/*
 * One log line per API request: method, route, path, status, duration and, for a
 * refusal, its error code. Registered first, so requests refused by the rate limit or the bearer
 * check are logged too. Neither headers (the bearer token), nor query strings (search text), nor
 * bodies (passphrases) are logged.
 *
 * Levels: a 5xx answer is `error`; the dashboard's static files (one page load fetches several) are
 * `debug` unless refused; every other request is `info`, which the default level shows. A streamed
 * answer (`GET /v1/events`) is logged when its stream opens, with the time to its headers.
 */

/** @default 256 — longer request paths are cut in the log (they are a caller's text). */
export const MAX_LOGGED_PATH = 256

const STATIC_PREFIX = '/dashboard'

export function requestLog (logger: Logger = silentLogger, now: () => number = () => performance.now()): MiddlewareHandler {
  const log = logger.child({ component: 'api' })
  return async (c, next) => {
    const started = now()
    await next()
    const status = c.res.status
    const path = c.req.path.slice(0, MAX_LOGGED_PATH)
    const route = routeOf(c)
    const code = c.error === undefined ? undefined : errorResponseOf(c.error).body.error.code
    const level: LogLevel = status >= 500 ? 'error' : status < 400 && path.startsWith(STATIC_PREFIX) ? 'debug' : 'info'
    log[level]('request', {
      method: c.req.method,
      route,
      path,
      status,
      ms: Math.round((now() - started) * 10) / 10,
      code
    })
  }
}

/**
 * The route pattern that answers (`/v1/memories/:id`), which groups requests where the path has
 * ids; undefined when no route matched. Middleware (`app.use`) is registered for every method, so
 * the first match with a method is the handler.
 */
function routeOf (c: Context): string | undefined {
  return matchedRoutes(c).find((r) => r.method !== 'ALL')?.path
}
