import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type ApiFixture } from './api-fixture.js'

/*
 * POST /v1/peers/connect|disconnect|sync and GET /v1/network/stats on a node without the network:
 * refused with USAGE (the daemon serves them; test/integration/sim/remote-pool.test.ts drives them
 * there), and bodies checked by their schemas first.
 */

describe('peer control routes without the network', () => {
  let api: ApiFixture
  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  it.each([
    ['POST', '/v1/peers/connect', { address: '/ip4/127.0.0.1/tcp/4501/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo' }],
    ['POST', '/v1/peers/disconnect', { peer: '12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo' }],
    ['POST', '/v1/peers/sync', {}],
    ['GET', '/v1/network/stats', undefined]
  ])('%s %s needs a running network node (USAGE)', async (method, path, body) => {
    const response = await api.call(method, path, body)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'USAGE' } })
  })

  it('checks addresses and peer ids before anything else', async () => {
    for (const [path, body] of [
      ['/v1/peers/connect', { address: 'not a multiaddr' }],
      ['/v1/peers/connect', { address: '/ip4/127.0.0.1/tcp/4501' }],
      ['/v1/peers/disconnect', { peer: '0OIl' }],
      ['/v1/peers/sync', { peer: 'x', extra: 1 }]
    ] as const) {
      const response = await api.call('POST', path, body)
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: 'SCHEMA_INVALID' } })
    }
  })
})
