import { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../log/index.js'
import { schemaError } from '../record/index.js'
import { ApiError, tokensEqual } from '../api-access/index.js'
import { errorResponseOf } from './errors.js'
import type { EventLog } from '../operations/index.js'
import type { NodeOperations } from '../operations/index.js'
import type { ApiApp } from './routes/common.js'
import { registerDashboardPages } from './routes/dashboard-files.js'
import { registerEventRoutes, type StreamClosers } from './routes/event-stream.js'
import { createHostGuard } from './host-guard.js'
import { rateLimit, type RateLimitInit } from './rate-limit.js'
import { requestLog } from './request-log.js'
import { registerOpenApiRoute } from './routes/openapi.js'
import { registerOperationRoutes } from './operation-routes.js'

/** The API's version in its OpenAPI document; paths carry the major version (`/v1`). */
export const API_VERSION = '1.0.0'

const TARGETS: Record<string, string> = { json: 'request body', query: 'query string', param: 'path' }

export interface ApiAppInit {
  node: NodeOperations
  token: string
  events: EventLog
  closers: StreamClosers
  /** One line per request (request-log.ts). @default silentLogger */
  log?: Logger
  /** Names the API answers to besides 127.0.0.1, localhost and [::1] (host-guard.ts). */
  hostNames?: readonly string[]
  /** Answer any Host (an API behind a relay, host-guard.ts). @default false */
  anyHost?: boolean
  /** The port it listens on, for the Host check. @default () => undefined (any port) */
  port?: () => number | undefined
  /** The authenticated and anonymous budgets (rate-limit.ts). @default the documented defaults */
  limits?: Pick<RateLimitInit, 'authenticated' | 'anonymous'>
}

/**
 * The whole API as a hono app, without a socket: authentication first (so nothing, not even a 404,
 * answers a caller without the token), then the routes, with one error handler mapping every
 * failure to `{ error: { code, message } }` and its status (errors.ts).
 */
export function createApiApp (init: ApiAppInit): ApiApp {
  const app: ApiApp = new OpenAPIHono({
    // A request that fails its zod schema is refused with the record layer's own codes.
    defaultHook: (result) => {
      if (!result.success) throw schemaError(result.error, TARGETS[result.target] ?? result.target)
    }
  })
  app.use('*', requestLog(init.log))
  const hosts = createHostGuard({ names: init.hostNames ?? [], port: init.port ?? (() => undefined), anyHost: init.anyHost === true })
  // docs/limits.md: per credential, before anything else; then the Host and Origin (DNS rebinding).
  app.use('*', rateLimit({ ...init.limits, token: init.token, isCrossOrigin: hosts.isCrossOrigin }))
  app.use('*', hosts.middleware)
  // The dashboard's static files (no data, no secret) are the one exception to authentication.
  registerDashboardPages(app)
  app.use('*', requireBearer(init.token))
  // Every operation of the table (table/index.ts), with its OpenAPI entry.
  registerOperationRoutes(app, init.node)
  registerEventRoutes(app, init.events, init.closers)
  registerOpenApiRoute(app, API_VERSION)
  app.notFound(() => { throw new ApiError('ROUTE_NOT_FOUND', 'no such route; see GET /v1/openapi.json') })
  app.onError((err, c) => {
    const { status, body } = errorResponseOf(err)
    if (body.error.code === 'UNAUTHORIZED') c.header('WWW-Authenticate', 'Bearer realm="isnad"')
    // Both are answered without reading the body, whose unread rest would otherwise be taken for
    // the next request on this connection; and a caller without the token has no use for it.
    if (body.error.code === 'BODY_TOO_LARGE' || body.error.code === 'UNAUTHORIZED' || body.error.code === 'BODY_TOO_DEEP') c.header('Connection', 'close')
    return c.json(body, status)
  })
  return app
}

/** RFC 6750 bearer token, compared in constant time (token.ts). */
export function requireBearer (token: string): MiddlewareHandler {
  return async (c, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '')
    if (match?.[1] === undefined || !tokensEqual(match[1], token)) {
      throw new ApiError('UNAUTHORIZED', 'missing or wrong bearer token (see .memory/api.token)')
    }
    await next()
  }
}
