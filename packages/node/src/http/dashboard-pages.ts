import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * The dashboard's static files: the page, its stylesheet, its icon and the browser bundle that esbuild writes
 * beside them (scripts/build-dashboard.mjs, part of `npm run build`). They hold no data and no
 * secret, so the daemon serves them without the token; every call the page makes for data carries
 * the token, which reaches the page in the URL's fragment (never sent to a server, see README).
 */

/**
 * Where the built files are: dist/src/dashboard/assets once compiled (src/dashboard holds the page;
 * the API that serves it lives here, so the dashboard's code depends on the API and not back).
 */
export const DASHBOARD_ASSETS_DIR = fileURLToPath(new URL('../dashboard/assets/', import.meta.url))

const CONTENT_TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.js.map': 'application/json; charset=utf-8',
  // Named by the page's <link rel="icon">, so the browser never asks for /favicon.ico (behind the token).
  'favicon.svg': 'image/svg+xml'
}

/**
 * The page may run its own script and talk to its own origin, nothing else: no inline script an
 * injected memory text could become, no framing (clickjacking the attest buttons), no referrer.
 */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store'
}

export interface DashboardAsset { body: Uint8Array, contentType: string }

/** One of the dashboard's files, or undefined for any other name (and for a bundle not built yet). */
export async function readDashboardAsset (name: string, dir: string = DASHBOARD_ASSETS_DIR): Promise<DashboardAsset | undefined> {
  const contentType = CONTENT_TYPES[name]
  if (contentType === undefined) return undefined
  try {
    return { body: await readFile(join(dir, name)), contentType }
  } catch {
    return undefined
  }
}
