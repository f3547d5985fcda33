import fc from 'fast-check'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorResponseOf } from '../../src/http/errors.js'
import { rateLimit } from '../../src/http/rate-limit.js'
import { RateLimiter } from '../../src/net/limits/limits.js'
import { startApi, type ApiFixture } from '../integration/api/api-fixture.js'
import { fuzzParams } from './fuzz.js'

/**
 * The HTTP API under random request bodies: every answer is a well-formed JSON
 * response with a 4xx code (or a success for the rare valid body), never a 500, and the node keeps
 * working. Routes that take a body, with the ids in their paths replaced by random text too.
 */
const ROUTES = [
  '/v1/memories', '/v1/memories/{id}/attestations', '/v1/memories/{id}/anchors', '/v1/ids', '/v1/ids/rotate', '/v1/ids/revoke',
  '/v1/ids/delegate', '/v1/ledger/observe', '/v1/verify', '/v1/export', '/v1/import', '/v1/witness-requests', '/v1/select'
]

describe('fuzz: HTTP request bodies', () => {
  let api: ApiFixture

  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  it('random JSON and random text to every POST route: a 4xx error body or a success, never a 500', async () => {
    const body = fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'), fc.string({ maxLength: 200 }))
    const id = fc.oneof(fc.constant('bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), fc.string({ minLength: 1, maxLength: 60 }))
    await fc.assert(fc.asyncProperty(fc.constantFrom(...ROUTES), id, body, async (route, pathId, text) => {
      const response = await api.call('POST', route.replace('{id}', encodeURIComponent(pathId)), text)
      expect(response.status, `${route} ${text.slice(0, 80)}`).not.toBe(500)
      const answer = await response.json() as { error?: { code: string } }
      if (response.status >= 400) expect(answer.error?.code).toEqual(expect.any(String))
    }), fuzzParams(150))
    expect((await api.call('GET', '/v1/status')).status).toBe(200)
  })
})

describe('HTTP rate limit (docs/limits.md)', () => {
  it('answers 429 RATE_LIMITED with Retry-After past the burst, then lets the client in again', async () => {
    let now = 0
    const app = new Hono()
    app.use('*', rateLimit({ anonymous: new RateLimiter(2, 3, () => now) }))
    app.get('/', (c) => c.text('ok'))
    app.onError((err, c) => c.json(errorResponseOf(err).body, errorResponseOf(err).status))
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await app.request('/')).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    const limited = await app.request('/')
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } })
    now += 1000 // two tokens flow back in a second
    expect((await app.request('/')).status).toBe(200)
  })
})
