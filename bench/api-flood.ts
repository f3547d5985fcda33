import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiServer, createLocalOperations, loadOrCreateApiToken } from '../src/api/index.js'
import { createKeystore } from '../src/keys/index.js'
import { LocalNode, initHome } from '../src/node/index.js'

/*
 * Issue 22 item 4, long form: a legitimate client with the token (a CLI script, ~50 requests/s) and,
 * on the same host, a flood of requests with a wrong token as fast as FLOOD_WORKERS connections allow.
 * Figures: the share of the legit client's requests answered 200 with and without the flood, in the
 * same run, and the flood's statuses. The API runs with its default budgets.
 * `npm run build --silent && node dist/bench/api-flood.js [seconds]` (default 20).
 */

const SECONDS = Number(process.argv[2] ?? 20)
const FLOOD_WORKERS = 8
const LEGIT_INTERVAL_MS = 20

async function get (url: string, headers: Record<string, string>): Promise<number> {
  return await new Promise((resolve) => {
    const req = httpRequest(`${url}/v1/status`, { headers, agent: false }, (res) => { res.resume(); res.on('end', () => { resolve(res.statusCode ?? 0) }) })
    req.on('error', () => { resolve(0) })
    req.end()
  })
}

async function legitRun (url: string, token: string, ms: number): Promise<{ sent: number, answered: number }> {
  let sent = 0
  let answered = 0
  const until = Date.now() + ms
  while (Date.now() < until) {
    sent++
    if (await get(url, { authorization: `Bearer ${token}` }) === 200) answered++
    await new Promise((resolve) => setTimeout(resolve, LEGIT_INTERVAL_MS))
  }
  return { sent, answered }
}

async function main (): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-api-flood-'))
  const init = await initHome(home)
  const node = await LocalNode.open({ home })
  const operations = createLocalOperations({ node, home, keystore: createKeystore({ directory: init.paths.keys }) })
  const token = await loadOrCreateApiToken(init.paths.data)
  const server = await createApiServer({ node: operations, token })
  try {
    const quiet = await legitRun(server.url, token, SECONDS * 500)
    const statuses: Record<number, number> = {}
    let flooding = true
    const flood = Promise.all(Array.from({ length: FLOOD_WORKERS }, async () => {
      while (flooding) {
        const status = await get(server.url, { authorization: 'Bearer not-the-token-not-the-token-not-the-tok' })
        statuses[status] = (statuses[status] ?? 0) + 1
      }
    }))
    const flooded = await legitRun(server.url, token, SECONDS * 1000)
    flooding = false
    await flood
    const floodTotal = Object.values(statuses).reduce((a, b) => a + b, 0)
    process.stdout.write(`${JSON.stringify({
      seconds: SECONDS,
      legit_without_flood: { ...quiet, share: quiet.answered / quiet.sent },
      legit_under_flood: { ...flooded, share: flooded.answered / flooded.sent },
      ratio: (flooded.answered / flooded.sent) / (quiet.answered / quiet.sent),
      flood: { requests: floodTotal, per_second: Math.round(floodTotal / SECONDS), statuses }
    }, null, 2)}\n`)
  } finally {
    await server.close()
    await operations.close()
    await rm(home, { recursive: true, force: true })
  }
}

await main()
