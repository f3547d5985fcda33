import type { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { readBoundedBody } from '../body.js'
import { ErrorBodySchema } from '../../api-access/index.js'

/** The app every route file registers on. */
export type ApiApp = OpenAPIHono

/** `content` of a JSON request or response body. */
export function json<T extends z.ZodType> (schema: T): { 'application/json': { schema: T } } {
  return { 'application/json': { schema } }
}

/** The errors any authenticated route can answer with (the operations' routes list their own: table/http.ts). */
export const BASE_ERRORS = {
  401: { description: 'UNAUTHORIZED: missing or wrong bearer token', content: json(ErrorBodySchema) },
  500: { description: 'INTERNAL and the node\'s own failures (IO_ERROR, LEDGER_CORRUPT, …)', content: json(ErrorBodySchema) }
} as const

/**
 * Refuses a body over `maxBytes` with 413 BODY_TOO_LARGE before it is parsed (on its Content-Length
 * when given, else while it streams in), and one nested deeper than MAX_JSON_DEPTH with 400
 * BODY_TOO_DEEP before JSON.parse sees it (body.ts). Every route that takes a body has it.
 */
export function limitBody (maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    await readBoundedBody(c, maxBytes)
    await next()
  }
}
