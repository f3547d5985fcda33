import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { ApiError, ErrorBodySchema, type ApiErrorCode } from '../api-access/index.js'
import { HTTP_STATUS_BY_CODE } from './errors.js'
import type { ApiApp } from './routes/common.js'
import { limitBody } from './routes/common.js'
import { OPERATIONS } from '../operations/index.js'
import { baseTypeOf, bodyLimitOf, parseOperationInput, pathParamsOf, runOperation, type OperationNode, type OperationSpec } from '../operations/index.js'

/*
 * The HTTP routes and their OpenAPI entries, derived from the table. Each route collects its raw
 * input (path parameters, then the query string or the JSON body) and hands it to the same parse
 * every other surface runs, so an unknown key, a bad CID or an oversized field gets the same code
 * here as through the CLI or MCP.
 */

/** OpenAPI `/v1/memories/{id}` → hono `/v1/memories/:id`. */
function honoPath (path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1')
}

const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i

/** The JSON body, or undefined when there is none; 415 for another media type, JSON_INVALID for bad JSON. */
async function readJsonBody (c: Context): Promise<unknown> {
  const type = c.req.header('content-type')
  const text = await c.req.text()
  if (type === undefined || type === '') {
    if (text.length === 0) return undefined
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json')
  }
  if (!JSON_REQUEST.test(type)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json')
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new IsnadError('JSON_INVALID', 'request body is not valid JSON')
  }
}

/** A query string as the input object: lists for list fields, numbers for number fields, text otherwise. */
export function queryInputOf (spec: OperationSpec, entries: Record<string, string[]>): Record<string, unknown> {
  const shape = spec.input.shape as Record<string, z.ZodType>
  const value: Record<string, unknown> = {}
  for (const [key, values] of Object.entries(entries)) {
    // An old name (`tag`) is read as the field it stands for (`tags`).
    const field = shape[key] ?? shape[spec.aliases?.[key] ?? '']
    const type = field === undefined ? 'unknown' : baseTypeOf(field)
    if (type === 'array') value[key] = values
    else {
      const one: string | string[] = values.length === 1 ? values[0] as string : values
      value[key] = type === 'number' && typeof one === 'string' && /^-?\d+(\.\d+)?$/.test(one) ? Number(one) : one
    }
  }
  return value
}

async function rawInputOf (c: Context, spec: OperationSpec): Promise<unknown> {
  const params = c.req.param() as Record<string, string>
  // A route without a body takes its fields from the query string, so an unknown parameter is
  // refused there as an unknown body field is.
  if (spec.http.in !== 'body') return { ...queryInputOf(spec, c.req.queries()), ...params }
  const body = await readJsonBody(c)
  if (spec.http.bodyField !== undefined) return body === undefined ? params : { ...params, [spec.http.bodyField]: body }
  if (body === undefined) return params
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  for (const name of Object.keys(params)) {
    if (name in body) throw new IsnadError('SCHEMA_INVALID', `request body is invalid: ${name}: given in the path, not in the body`)
  }
  return { ...body, ...params }
}

/** Registers every operation of the table as a route, with its OpenAPI entry. */
export function registerOperationRoutes (app: ApiApp, node: OperationNode): void {
  for (const spec of OPERATIONS) {
    app.openAPIRegistry.registerPath(openApiPathOf(spec))
    const handler = async (c: Context): Promise<Response> => {
      const input = parseOperationInput(spec, await rawInputOf(c, spec))
      const output = await runOperation(spec, node, input)
      return c.json(output as object, spec.http.status ?? 200)
    }
    const method = spec.http.method === 'get' ? 'GET' : 'POST'
    const maxBodyBytes = bodyLimitOf(spec)
    if (maxBodyBytes !== undefined) app.on(method, honoPath(spec.http.path), limitBody(maxBodyBytes), handler)
    else app.on(method, honoPath(spec.http.path), handler)
  }
}

/** The transport's own refusals, beside the operation's codes. */
function transportCodesOf (spec: OperationSpec): ApiErrorCode[] {
  const codes: ApiErrorCode[] = ['UNAUTHORIZED', 'INTERNAL']
  if (spec.http.in === 'body') codes.push('JSON_INVALID', 'BODY_TOO_DEEP', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'SCHEMA_INVALID')
  if (pathParamsOf(spec).length > 0 || spec.http.in === 'query') codes.push('SCHEMA_INVALID')
  return codes
}

/** Every code the route can answer with, by HTTP status, sorted. */
export function errorCodesByStatus (spec: OperationSpec): Map<number, ApiErrorCode[]> {
  const byStatus = new Map<number, ApiErrorCode[]>()
  for (const code of new Set<ApiErrorCode>([...transportCodesOf(spec), ...spec.errors])) {
    const status = HTTP_STATUS_BY_CODE[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b))
}

type RouteConfig = Parameters<ApiApp['openAPIRegistry']['registerPath']>[0]

function openApiPathOf (spec: OperationSpec): RouteConfig {
  const paramNames = pathParamsOf(spec)
  const shape = spec.input.shape as Record<string, z.ZodType>
  const request: NonNullable<RouteConfig['request']> = {}
  if (paramNames.length > 0) request.params = z.object(Object.fromEntries(paramNames.map((n) => [n, shape[n] as z.ZodType])))
  if (spec.http.in === 'query') request.query = spec.input
  if (spec.http.in === 'body') {
    const schema = spec.http.bodyField !== undefined
      ? shape[spec.http.bodyField] as z.ZodType
      : z.strictObject(Object.fromEntries(Object.entries(shape).filter(([n]) => !paramNames.includes(n))))
    request.body = { content: { 'application/json': { schema } }, required: spec.http.optionalBody !== true }
  }
  const responses: RouteConfig['responses'] = {
    [spec.http.status ?? 200]: { description: spec.summary, content: { 'application/json': { schema: spec.output } } }
  }
  for (const [status, codes] of errorCodesByStatus(spec)) {
    responses[status as ContentfulStatusCode] = { description: codes.join(', '), content: { 'application/json': { schema: ErrorBodySchema } } }
  }
  return {
    method: spec.http.method,
    path: spec.http.path,
    operationId: spec.name,
    summary: `${spec.cli.command}: ${spec.summary}`,
    ...(spec.http.description === undefined ? {} : { description: spec.http.description }),
    request,
    responses
  }
}
