import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_ANONYMOUS_REQUEST_BURST, API_ANONYMOUS_REQUESTS_PER_SECOND, MAX_JSON_DEPTH } from '../../../src/http/index.js'
import { MAX_BUNDLE_REQUEST_BYTES } from '../../../src/operations/index.js'
import { RateLimiter } from '../../../src/net/limits/limits.js'
import { countsOf, jsonOf, startApi, type ApiFixture } from './api-fixture.js'

/*
 * The API's request guards against a real server on 127.0.0.1: budgets per credential (a flood without
 * the token cannot starve a client with it), the Host and Origin checks (DNS rebinding), and bounded
 * bodies (size while streaming, nesting depth before parsing). The long flood measurement is
 * bench/api-flood.ts.
 */

interface Raw { status: number, body: string }

/** node:http, since fetch will not send a Host header of our choosing. */
async function raw (url: string, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Raw> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, body: text }) })
    })
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}

const codeOf = (r: Raw): string | undefined => (JSON.parse(r.body) as { error?: { code: string } }).error?.code

describe('request budgets per credential', () => {
  let api: ApiFixture

  // The token's budget is made small here so the test is short; the anonymous one keeps its default.
  beforeAll(async () => { api = await startApi({ server: { limits: { authenticated: new RateLimiter(100, 100) } } }) })
  afterAll(async () => { await api.stop() })

  it('a flood with a wrong token gets 401 then 429 from its own budget; the client with the token is answered throughout', async () => {
    const statuses = new Map<number, number>()
    let flooding = true
    const flood = (async () => {
      const workers = Array.from({ length: 4 }, async () => {
        while (flooding) {
          // Its own connections (node:http, no agent), as another process would have.
          const { status } = await raw(api.url, '/v1/status', { authorization: 'Bearer wrong-token-wrong-token-wrong-token-xx' })
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      })
      await Promise.all(workers)
    })()
    let answered = 0
    const legit = 100
    const started = Date.now()
    try {
      for (let i = 0; i < legit; i++) {
        const response = await api.call('GET', '/v1/status')
        await response.arrayBuffer()
        if (response.status === 200) answered++
      }
    } finally {
      flooding = false
      await flood
    }
    // The wrong token got no more than its own budget (burst + rate × time); the rest were 429.
    const seconds = (Date.now() - started) / 1000
    expect(statuses.get(401) ?? 0).toBeLessThanOrEqual(API_ANONYMOUS_REQUEST_BURST + Math.ceil(API_ANONYMOUS_REQUESTS_PER_SECOND * (seconds + 1)))
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0)
    expect(answered / legit).toBeGreaterThanOrEqual(0.99)
  }, 60_000)

  it('a request from another web origin draws from the anonymous budget and is refused even with the token', async () => {
    const foreign = await raw(api.url, '/v1/status', { authorization: `Bearer ${api.token}`, origin: 'http://evil.example' })
    expect([403, 429]).toContain(foreign.status)
    expect(['ORIGIN_REFUSED', 'RATE_LIMITED']).toContain(codeOf(foreign))
    const own = await raw(api.url, '/v1/status', { authorization: `Bearer ${api.token}`, origin: api.url })
    expect(own.status).toBe(200)
  })
})

describe('Host and Origin checks', () => {
  let api: ApiFixture
  let port: string

  beforeAll(async () => {
    api = await startApi({ server: { hostNames: ['isnad.internal'] } })
    port = new URL(api.url).port
  })
  afterAll(async () => { await api.stop() })

  it('answers to 127.0.0.1, localhost, [::1] and configured names with its own port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `isnad.internal:${port}`, `LOCALHOST:${port}`]) {
      expect((await raw(api.url, '/v1/status', { host, authorization: `Bearer ${api.token}` })).status, host).toBe(200)
    }
  })

  it('refuses any other Host with 421 HOST_REFUSED, token or not (DNS rebinding)', async () => {
    const other = String(Number(port) === 65535 ? 1 : Number(port) + 1)
    for (const host of [`evil.example:${port}`, `127.0.0.1:${other}`, '127.0.0.1', `127.0.0.1.evil.example:${port}`, `localhost.:${port}`]) {
      const answer = await raw(api.url, '/v1/status', { host, authorization: `Bearer ${api.token}` })
      expect(answer.status, host).toBe(421)
      expect(codeOf(answer), host).toBe('HOST_REFUSED')
    }
    const dashboard = await raw(api.url, '/dashboard/', { host: `rebound.example:${port}` })
    expect(dashboard.status).toBe(421)
  })

  it('refuses a request marked with another origin, or the null origin, with 403 ORIGIN_REFUSED', async () => {
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${Number(port) + 1}`]) {
      const answer = await raw(api.url, '/v1/status', { authorization: `Bearer ${api.token}`, origin })
      expect(answer.status, origin).toBe(403)
      expect(codeOf(answer), origin).toBe('ORIGIN_REFUSED')
    }
    expect((await raw(api.url, '/v1/status', { authorization: `Bearer ${api.token}`, origin: `http://localhost:${port}` })).status).toBe(200)
  })
})

describe('an API behind a relay (anyHost: the simulator\'s node supervisor)', () => {
  let api: ApiFixture

  beforeAll(async () => { api = await startApi({ server: { anyHost: true } }) })
  afterAll(async () => { await api.stop() })

  it('answers the relay\'s Host, still asks for the token and still refuses another origin', async () => {
    const relayed = await raw(api.url, '/v1/status', { host: 'node-3:4600', authorization: `Bearer ${api.token}` })
    expect(relayed.status).toBe(200)
    expect((await raw(api.url, '/v1/status', { host: 'node-3:4600' })).status).toBe(401)
    const foreign = await raw(api.url, '/v1/status', { host: 'node-3:4600', authorization: `Bearer ${api.token}`, origin: 'http://evil.example' })
    expect(codeOf(foreign)).toBe('ORIGIN_REFUSED')
  })
})

describe('bounded request bodies', () => {
  let api: ApiFixture

  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  const nested = (depth: number): string => `{"summary":"deep","tags":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} with 400 BODY_TOO_DEEP, before parsing; nothing stored`, async () => {
    const before = await countsOf(api)
    const deep = await jsonOf<{ error: { code: string } }>(await api.call('POST', '/v1/memories', nested(MAX_JSON_DEPTH + 1)))
    expect(deep.status).toBe(400)
    expect(deep.body.error.code).toBe('BODY_TOO_DEEP')
    // At the limit it is parsed, and the schema refuses the nonsense.
    expect((await jsonOf<{ error: { code: string } }>(await api.call('POST', '/v1/memories', nested(MAX_JSON_DEPTH)))).body.error.code).toBe('SCHEMA_INVALID')
    expect(await countsOf(api)).toEqual(before)
  })

  it('refuses the 7 MB nesting bomb on the bundle routes with BODY_TOO_DEEP, streamed or not', async () => {
    const bomb = '['.repeat(3_500_000) + ']'.repeat(3_500_000)
    expect(bomb.length).toBeLessThan(MAX_BUNDLE_REQUEST_BYTES)
    for (const route of ['/v1/verify', '/v1/import']) {
      const answer = await jsonOf<{ error: { code: string } }>(await api.call('POST', route, bomb))
      expect(answer.body.error.code, route).toBe('BODY_TOO_DEEP')
    }
    const bytes = new TextEncoder().encode(bomb)
    const chunked = new ReadableStream<Uint8Array>({
      start (controller) {
        for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536))
        controller.close()
      }
    })
    const streamed = await fetch(`${api.url}/v1/verify`, {
      method: 'POST', body: chunked, duplex: 'half', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }
    } as RequestInit)
    expect(streamed.status).toBe(400)
    expect(await streamed.json()).toMatchObject({ error: { code: 'BODY_TOO_DEEP' } })
  })

  it('applies both limits on every route that takes a body (from the OpenAPI document)', async () => {
    const doc = (await jsonOf<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>(await api.call('GET', '/v1/openapi.json'))).body
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods)
      .filter(([, op]) => op.requestBody !== undefined)
      .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{id\}/, 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy') })))
    expect(routes.length).toBeGreaterThanOrEqual(15)
    for (const { method, path } of routes) {
      const deep = await jsonOf<{ error: { code: string } }>(await api.call(method, path, '['.repeat(MAX_JSON_DEPTH + 1)))
      expect(deep.body.error?.code, `${method} ${path}`).toBe('BODY_TOO_DEEP')
      const large = await jsonOf<{ error: { code: string } }>(await api.call(method, path, `"${'x'.repeat(MAX_BUNDLE_REQUEST_BYTES)}"`))
      expect(large.status, `${method} ${path}`).toBe(413)
      expect(large.body.error?.code, `${method} ${path}`).toBe('BODY_TOO_LARGE')
    }
  }, 60_000)
})
