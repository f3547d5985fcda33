import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../../src/http/index.js'
import { loadOrCreateApiToken } from '../../../src/api-access/index.js'
import { createLocalOperations, type LocalOperations } from '../../../src/operations/local/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { createLogger, type LogLevel } from '../../../src/log/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'

const UNKNOWN = 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki'

type Line = Record<string, unknown>

/** The API on a real home, its request log captured at `level`; `status` fails like a bug would. */
async function serve (level: LogLevel): Promise<{ url: string, token: string, lines: Line[], stop: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-request-log-'))
  const init = await initHome(home)
  const operations: LocalOperations = createLocalOperations({ node: await LocalNode.open({ home }), home, keystore: createKeystore({ directory: init.paths.keys }) })
  const broken = new Proxy(operations, {
    get: (target, prop, receiver) => prop === 'exportBundle' ? async () => { throw new Error('a bug') } : Reflect.get(target, prop, receiver) as unknown
  })
  const lines: Line[] = []
  const log = createLogger({ level, write: (line) => { lines.push(JSON.parse(line) as Line) } })
  const token = await loadOrCreateApiToken(init.paths.data)
  const server: ApiServer = await createApiServer({ node: broken, token, log })
  return {
    url: server.url,
    token,
    lines,
    stop: async () => {
      await server.close()
      await operations.close()
      await rm(home, { recursive: true, force: true })
    }
  }
}

describe('the API request log (src/http/request-log.ts)', () => {
  let api: Awaited<ReturnType<typeof serve>>
  const call = async (path: string, init: RequestInit = {}, token = api.token): Promise<number> =>
    (await fetch(`${api.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers as Record<string, string> } })).status

  beforeAll(async () => { api = await serve('info') }, 60_000)
  afterAll(async () => { await api.stop() })

  it('logs each request once at info with method, route, path, status, duration and the refusal code', async () => {
    api.lines.length = 0
    expect(await call('/v1/status')).toBe(200)
    // An unknown query parameter is refused like an unknown body field.
    expect(await call(`/v1/memories/${UNKNOWN}?q=secret-search`)).toBe(400)
    expect(await call('/v1/status', {}, 'x'.repeat(43))).toBe(401)
    expect(await call('/v1/no-such-route')).toBe(404)
    expect(api.lines.map(({ time, ms, ...rest }) => rest)).toEqual([
      { level: 'info', msg: 'request', component: 'api', method: 'GET', route: '/v1/status', path: '/v1/status', status: 200 },
      { level: 'info', msg: 'request', component: 'api', method: 'GET', route: '/v1/memories/:id', path: `/v1/memories/${UNKNOWN}`, status: 400, code: 'SCHEMA_INVALID' },
      { level: 'info', msg: 'request', component: 'api', method: 'GET', route: '/v1/status', path: '/v1/status', status: 401, code: 'UNAUTHORIZED' },
      { level: 'info', msg: 'request', component: 'api', method: 'GET', path: '/v1/no-such-route', status: 404, code: 'ROUTE_NOT_FOUND' }
    ])
    for (const line of api.lines) expect(typeof line.ms === 'number' && line.ms >= 0, JSON.stringify(line)).toBe(true)
    // Neither the token nor the query string is ever logged.
    const text = JSON.stringify(api.lines)
    expect(text).not.toContain(api.token)
    expect(text).not.toContain('secret-search')
  })

  it('logs a 5xx at error, and the dashboard\'s static files only at debug', async () => {
    api.lines.length = 0
    expect(await call('/v1/export', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ids: [UNKNOWN] }) })).toBe(500)
    expect(await call('/dashboard/')).not.toBe(401)
    expect(api.lines).toEqual([expect.objectContaining({ level: 'error', route: '/v1/export', status: 500, code: 'INTERNAL' })])
  })

  it('at debug, logs the dashboard\'s files too', async () => {
    const debug = await serve('debug')
    try {
      await fetch(`${debug.url}/dashboard/`)
      expect(debug.lines).toEqual([expect.objectContaining({ level: 'debug', method: 'GET', route: '/dashboard/:file{[a-z.]*}', path: '/dashboard/' })])
    } finally {
      await debug.stop()
    }
  })
})
