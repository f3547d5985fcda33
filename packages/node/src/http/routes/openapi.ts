import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { BASE_ERRORS, json, type ApiApp } from './common.js'

/** The security scheme every route requires (the document says so once, at the top level). */
export const BEARER_SCHEME = 'bearerAuth'

const openapi = createRoute({
  method: 'get',
  path: '/v1/openapi.json',
  summary: 'this API\'s OpenAPI 3.1 document, generated from its zod schemas',
  responses: { 200: { description: 'the OpenAPI document', content: json(z.record(z.string(), z.unknown())) }, ...BASE_ERRORS }
})

/** Builds the document once, on first request: every route is registered by then. */
export function registerOpenApiRoute (app: ApiApp, version: string): void {
  app.openAPIRegistry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'The token in the node\'s `.memory/api.token` (mode 0600).'
  })
  let document: Record<string, unknown> | undefined
  app.openapi(openapi, (c) => {
    document ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'isnad local HTTP API',
        version,
        description: 'The local API of an isnad node: 127.0.0.1 only, bearer token required. See protocols/http-api.md.'
      },
      security: [{ [BEARER_SCHEME]: [] }]
    }) as unknown as Record<string, unknown>
    repairPatterns(document)
    return c.json(document, 200)
  })
}

/**
 * zod-to-openapi writes a regex with flags as its `toString()` minus the outer slashes, so
 * `/^\S+$/u` becomes the pattern `^\S+$/u`, which matches nothing the schema accepts. JSON Schema
 * patterns are ECMA-262 regexes evaluated with Unicode semantics anyway, so the flags are dropped.
 */
function repairPatterns (node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) repairPatterns(item)
  } else if (typeof node === 'object' && node !== null) {
    const object = node as Record<string, unknown>
    for (const [key, value] of Object.entries(object)) {
      if (key === 'pattern' && typeof value === 'string') object[key] = value.replace(/\$\/[dgimsuvy]+$/, '$')
      else repairPatterns(value)
    }
  }
}
