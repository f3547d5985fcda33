import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderRouteTable } from '../../../src/operations/table/doc.js'
import { OPERATIONS } from '../../../src/operations/index.js'

const DOC = new URL('../../../protocols/http-api.md', import.meta.url)
const SCRIPTS = (JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts

/** The routes that are not operations (protocols/http-api.md §3). */
const OTHER_ROUTES = ['GET /v1/events', 'GET /v1/openapi.json']

describe('protocols/http-api.md and the route table', () => {
  it('points at the full list rather than copying it: the OpenAPI document and `npm run routes`', () => {
    const doc = readFileSync(DOC, 'utf8')
    expect(doc).toContain('`GET /v1/openapi.json`')
    expect(doc).toContain('`npm run --silent routes`')
    expect(SCRIPTS.routes).toMatch(/dist\/scripts\/print-routes\.js$/)
  })

  it('names no route the table does not have', () => {
    const routes = new Set([...OPERATIONS.map((spec) => `${spec.http.method.toUpperCase()} ${spec.http.path}`), ...OTHER_ROUTES])
    const named = [...readFileSync(DOC, 'utf8').matchAll(/`((?:GET|POST) \/v1\/[^`\s]*)`/g)].map((m) => m[1] as string)
    expect(named.length).toBeGreaterThan(10)
    expect(named.filter((route) => !routes.has(route)), 'routes protocols/http-api.md names that no operation serves').toEqual([])
  })

  it('prints every operation\'s route, the peer-control and network ones included', () => {
    const table = renderRouteTable()
    expect(table.split('\n')).toHaveLength(OPERATIONS.length + 2)
    for (const spec of OPERATIONS) expect(table).toContain(`| \`${spec.http.method.toUpperCase()} ${spec.http.path}\` | \`${spec.name}\` |`)
    for (const path of ['/v1/peers/connect', '/v1/peers/disconnect', '/v1/peers/sync', '/v1/network/stats', '/v1/network/health']) {
      expect(table).toContain(path)
    }
  })
})
