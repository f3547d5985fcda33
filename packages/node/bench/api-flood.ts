import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApiServer } from '../src/http/index.js'
import { loadOrCreateApiToken } from '../src/api-access/index.js'
import { createLocalOperations } from '../src/operations/local/index.js'
import { createKeystore } from '../src/keystore/index.js'
import { LocalNode, initHome } from '../src/node/index.js'

/*
 * The API flood, long form: a legitimate client with the token (a CLI script, ~50 requests/s) and,
 * on the same host, another process flooding the API with a wrong token as fast as FLOOD_WORKERS
 * connections allow (far above the anonymous budget, so it runs at the rate limit: 401 until the
 * budget is spent, then 429). Figures: the share of the legit client's requests answered 200 with and
 * without the flood, in the same run, and the flood's statuses. The API runs with its default budgets.
 * `npm run bench:flood -- [seconds]` (default 20), i.e. `node dist/bench/api-flood.js [seconds]`.
 * The flooding process is this file again: `api-flood.js --flood <url> <seconds>`.
 */

const SECONDS = Number(process.argv[2] === '--flood' ? process.argv[4] : process.argv[2] ?? 20)
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

/** The flooding process: wrong-token requests for `seconds`, then its statuses as JSON on stdout. */
async function floodProcess (url: string, seconds: number): Promise<void> {
  const statuses: Record<number, number> = {}
  const until = Date.now() + seconds * 1000
  await Promise.all(Array.from({ length: FLOOD_WORKERS }, async () => {
    while (Date.now() < until) {
      const status = await get(url, { authorization: 'Bearer not-the-token-not-the-token-not-the-tok' })
      statuses[status] = (statuses[status] ?? 0) + 1
    }
  }))
  process.stdout.write(JSON.stringify(statuses))
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
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--flood', server.url, String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => { out += d.toString() })
    const exited = new Promise((resolve) => child.on('close', resolve))
    await new Promise((resolve) => setTimeout(resolve, 300)) // the flooder started and sending
    const flooded = await legitRun(server.url, token, SECONDS * 1000 - 600)
    await exited
    const statuses = JSON.parse(out === '' ? '{}' : out) as Record<number, number>
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

if (process.argv[2] === '--flood') await floodProcess(process.argv[3] as string, Number(process.argv[4]))
else await main()
