import { createRoute } from '@hono/zod-openapi'
import { GossipHealthSchema, OFFLINE_HEALTH, isGossipHealthSource } from '../../net/index.js'
import { DASHBOARD_HEADERS, readDashboardAsset } from '../dashboard-pages.js'
import type { NodeOperations } from '../operations.js'
import { BASE_ERRORS, json, type ApiApp } from './common.js'

/**
 * The web dashboard's files at /dashboard/ (issue 8 §3), registered before the bearer check: they
 * are the same for everyone and hold no data. Everything the page shows comes from the /v1 routes,
 * with the token.
 */
export function registerDashboardPages (app: ApiApp, assetsDir?: string): void {
  app.get('/dashboard', (c) => c.redirect('/dashboard/', 301))
  app.get('/dashboard/:file{[a-z.]*}', async (c) => {
    const name = c.req.param('file') === '' ? 'index.html' : c.req.param('file')
    const asset = await readDashboardAsset(name, assetsDir)
    if (asset === undefined) {
      const missing = name === 'app.js' || name === 'index.html'
      return c.text(missing ? `the dashboard's ${name} is not built here: run \`npm run build\`, then restart the node` : 'no such file', missing ? 503 : 404, DASHBOARD_HEADERS)
    }
    return c.body(asset.body.slice().buffer, 200, { ...DASHBOARD_HEADERS, 'content-type': asset.contentType })
  })
}

const gossipHealth = createRoute({
  method: 'get',
  path: '/v1/network/health',
  summary: 'gossip health: connected peers with their gossipsub scores and penalties, and each topic\'s mesh size',
  responses: { 200: { description: 'the network as this node sees it; running is false without the network', content: json(GossipHealthSchema) }, ...BASE_ERRORS }
})

export function registerGossipHealthRoute (app: ApiApp, node: NodeOperations): void {
  app.openapi(gossipHealth, (c) => c.json(isGossipHealthSource(node) ? node.gossipHealth() : OFFLINE_HEALTH, 200))
}
