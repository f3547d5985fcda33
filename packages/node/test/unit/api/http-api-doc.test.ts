import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderRouteTable, withRouteTable } from '../../../src/operations/table/doc.js'
import { OPERATIONS } from '../../../src/operations/index.js'

const DOC = new URL('../../../protocols/http-api.md', import.meta.url)

describe('protocols/http-api.md (issue 21 item 5)', () => {
  it('carries the route table generated from the table of operations', () => {
    const committed = readFileSync(DOC, 'utf8')
    expect(withRouteTable(committed), 'protocols/http-api.md is stale: run `npm run schemas` and commit the result').toBe(committed)
  })

  it('lists every operation\'s route, the peer-control and network ones included', () => {
    const table = renderRouteTable()
    for (const spec of OPERATIONS) expect(table).toContain(`\`${spec.http.method.toUpperCase()} ${spec.http.path}\``)
    for (const path of ['/v1/peers/connect', '/v1/peers/disconnect', '/v1/peers/sync', '/v1/network/stats', '/v1/network/health']) {
      expect(table).toContain(path)
    }
  })
})
