import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_ASSETS_DIR } from '../../../src/http/dashboard-pages.js'
import { startApi, type ApiFixture } from './api-fixture.js'

/*
 * The dashboard's routes on the API: the page's own files without the token and under
 * a strict Content-Security-Policy, everything with data behind it. Run from src/, the assets
 * directory holds the page but not the bundle, which `npm run build` writes under dist/.
 */

describe('dashboard routes', () => {
  let api: ApiFixture

  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  it('serves the page without the token, with a CSP that allows only its own script', async () => {
    const response = await fetch(`${api.url}/dashboard/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(await response.text()).toContain('<script type="module" src="/dashboard/app.js">')
    const redirect = await fetch(`${api.url}/dashboard`, { redirect: 'manual' })
    expect(redirect.headers.get('location')).toBe('/dashboard/')
  })

  it('serves its icon without the token, so the browser never asks for /favicon.ico behind it', async () => {
    const page = await (await fetch(`${api.url}/dashboard/`)).text()
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/dashboard/favicon.svg">')
    const icon = await fetch(`${api.url}/dashboard/favicon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(icon.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
  })

  it('says how to build a missing bundle, and serves no other file', async () => {
    expect(DASHBOARD_ASSETS_DIR).toMatch(/src\/dashboard\/assets\/$/)
    const bundle = await fetch(`${api.url}/dashboard/app.js`)
    expect(bundle.status).toBe(503)
    expect(await bundle.text()).toContain('npm run build')
    expect((await fetch(`${api.url}/dashboard/..%2f..%2fpackage.json`)).status).toBe(401)
    expect((await fetch(`${api.url}/dashboard/secret.txt`)).status).toBe(404)
  })

  it('keeps the gossip health behind the token; a node without the network reports running: false', async () => {
    expect((await fetch(`${api.url}/v1/network/health`)).status).toBe(401)
    const response = await fetch(`${api.url}/v1/network/health`, { headers: { authorization: `Bearer ${api.token}` } })
    expect(await response.json()).toEqual({ running: false, peers: [], topics: [] })
  })
})
