import { DASHBOARD_HEADERS, readDashboardAsset } from '../dashboard-pages.js'
import type { ApiApp } from './common.js'

/**
 * The web dashboard's files at /dashboard/, registered before the bearer check: they
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
