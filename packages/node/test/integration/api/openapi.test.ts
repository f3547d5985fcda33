import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimiter } from '../../../src/net/limits/limits.js'
import { OPERATIONS } from '../../../src/operations/index.js'
import { startApi, type ApiFixture } from './api-fixture.js'

/**
 * Every route of the API: the table's operations, each at its binding, and the server's own two.
 * The document must list exactly these (operation-table.test.ts checks each route's inputs).
 */
const ROUTES = [
  ...OPERATIONS.map((spec) => `${spec.http.method.toUpperCase()} ${spec.http.path}`),
  'GET /v1/events',
  'GET /v1/openapi.json'
].sort()

const A_CID = 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje'
const A_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'

interface OpenApiDocument {
  openapi: string
  info: { title: string, version: string }
  security: Array<Record<string, string[]>>
  components: { securitySchemes: Record<string, { type: string, scheme: string }>, schemas?: Record<string, unknown> }
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
}

/** `METHOD path` for every operation of an OpenAPI document. */
export function operationsOf (document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)).sort()
}

/** A concrete URL for a templated path (valid-looking parameters, so only the token decides). */
export function concrete (path: string): string {
  return path.replace('{id}', A_CID).replace('{memory}', A_CID).replace('{did}', A_DID)
}

describe('the OpenAPI document and authentication', () => {
  let api: ApiFixture
  let document: OpenApiDocument

  beforeAll(async () => {
    // Every route is tried four times without a valid token: more than the anonymous budget's burst
    // (docs/limits.md), which request-guards.test.ts tests on its own.
    api = await startApi({ server: { limits: { anonymous: new RateLimiter(10_000, 10_000) } } })
    const response = await api.call('GET', '/v1/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    // Validates as JSON: parsed from the wire text, not from a client's convenience decoder.
    document = JSON.parse(await response.text()) as OpenApiDocument
  })

  afterAll(async () => { await api.stop() })

  it('is OpenAPI 3.1, requires the bearer scheme everywhere, and lists every route', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.security).toEqual([{ bearerAuth: [] }])
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(operationsOf(document)).toEqual(ROUTES)
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('401')
      }
    }
  })

  it('carries the zod schemas: request bodies and named components', () => {
    const remember = document.paths['/v1/memories']?.post as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>, required: string[] } }> } }
    const schema = remember.requestBody.content['application/json']?.schema
    expect(schema?.required).toContain('summary')
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(['summary', 'type', 'tags', 'as', 'passphrase']))
    expect(Object.keys(document.components.schemas ?? {})).toEqual(expect.arrayContaining(['MemoryView', 'TrustResult', 'Error', 'KeyInfo']))
  })

  it('holds only patterns that compile as ECMA-262 regexes with Unicode semantics', () => {
    const patterns: string[] = []
    JSON.stringify(document, (key, value: unknown) => {
      if (key === 'pattern' && typeof value === 'string') patterns.push(value)
      return value
    })
    expect(patterns.length).toBeGreaterThan(0)
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow()
    expect(patterns).toContain('^\\S+$')
  })

  it('answers 401 UNAUTHORIZED on every route without the token or with a wrong one', async () => {
    const wrong = api.token.slice(0, -1) + (api.token.endsWith('A') ? 'B' : 'A')
    const attempts: Array<[string, Record<string, string>]> = [
      ['no token', {}],
      ['wrong token', { authorization: `Bearer ${wrong}` }],
      ['another scheme', { authorization: `Basic ${Buffer.from(`x:${api.token}`).toString('base64')}` }],
      ['empty bearer', { authorization: 'Bearer ' }]
    ]
    for (const route of operationsOf(document)) {
      const [method, path] = route.split(' ') as [string, string]
      for (const [label, headers] of attempts) {
        const response = await fetch(`${api.url}${concrete(path)}`, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {})
        })
        expect(response.status, `${route} with ${label}`).toBe(401)
        expect(response.headers.get('www-authenticate'), `${route} with ${label}`).toMatch(/^Bearer/)
        expect(await response.json(), `${route} with ${label}`).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
      }
    }
  })

  it('answers 401 even for routes that do not exist, so nothing is learnt without the token', async () => {
    const response = await fetch(`${api.url}/v1/nothing-here`)
    expect(response.status).toBe(401)
    const found = await api.call('GET', '/v1/nothing-here')
    expect(found.status).toBe(404)
    expect(await found.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } })
  })
})
