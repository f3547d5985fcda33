import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { findDaemon } from '../src/api/discovery.js'
import { createHttpOperations } from '../src/api/client.js'
import { readApiToken } from '../src/api/token.js'
import { nodeCryptoVerifier } from '../src/native/index.js'
import { createKeystore } from '../src/keys/index.js'
import { auditDataDir, writeAuditResults } from '../src/ledger/audit/index.js'
import { openEventLedger } from '../src/ledger/index.js'
import { initHome, LocalNode, nodePaths } from '../src/node/index.js'
import { checkIndexAgainstLedger } from '../src/node/index-check.js'
import { recordOfEvent } from '../src/node/journal/record-events.js'

/*
 * The long form of the damage matrix (issue 22): kill -9 a writer of a node home at random points,
 * again and again, across the three ways a home is written: the library (a LocalNode in its own
 * process), the CLI (`isnad remember` / `isnad attest`, each its own process taking the writer
 * lock), and the daemon (`isnad start`, written to over its HTTP API). After every kill: the node is
 * opened for writing (recovery: torn tails cut, the index replayed up to the ledger), the whole data
 * directory is audited (`isnad ledger verify`, results recorded so the next audit checks the
 * high-water marks), and every record whose write was acknowledged before the kill must be in the
 * ledger and in the index.
 *
 *   npm run build && node dist/bench/damage-long.js --kills=1000 [--per-home=25] [--out=file.json]
 *
 * Progress on stderr, the summary as JSON on stdout (and in --out).
 */

const REPO = join(fileURLToPath(import.meta.url), '../../..')
const BIN = join(REPO, 'bin/isnad.js')
const WRITER = join(REPO, 'dist/bench/damage-writer.js')

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const KILLS = Number(arg('kills', '1000'))
/** @default 25 — kills per home: a fresh home keeps the audit after each kill cheap. */
const PER_HOME = Number(arg('per-home', '25'))
const OUT = arg('out', '')
const ALL_LANES = ['library', 'cli', 'daemon'] as const
type Lane = (typeof ALL_LANES)[number]
/**
 * The lanes in turn (a lane may repeat). A daemon takes several seconds to start, so by default it
 * has one turn in five. `--lanes=daemon` runs only that (development).
 * @default library,cli,library,cli,daemon
 */
const LANES = arg('lanes', 'library,cli,library,cli,daemon').split(',').filter((l): l is Lane => (ALL_LANES as readonly string[]).includes(l))

interface LaneResult { kills: number, acked: string[], lastMemory?: string }

interface Summary {
  kills: number
  byLane: Record<Lane, number>
  acknowledged: number
  lost: number
  lostIds: string[]
  verifies: number
  unhealthy: Array<{ round: number, lane: Lane, status: string, findings: string[] }>
  homes: number
  durationS: number
  recoverMsP50: number
  verifyMsP50: number
  errors: string[]
}

function progress (message: string): void {
  process.stderr.write(`[damage ${(performance.now() / 1000).toFixed(0).padStart(5)} s] ${message}\n`)
}

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const between = (lo: number, hi: number): number => lo + Math.floor(Math.random() * (hi - lo))

/** Waits for the child to end; true when it was killed by SIGKILL. */
async function ended (child: ChildProcess): Promise<{ killed: boolean, code: number | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { killed: child.signalCode === 'SIGKILL', code: child.exitCode }
  return await new Promise((resolve) => child.on('close', (code, signal) => { resolve({ killed: signal === 'SIGKILL', code }) }))
}

/** The library lane: a LocalNode writing in a loop, killed `delay` ms after it is ready. */
async function libraryLane (home: string, round: number, witness: string): Promise<LaneResult> {
  const child = spawn(process.execPath, [WRITER, home, String(round), witness], { stdio: ['ignore', 'pipe', 'pipe'] })
  const acked: string[] = []
  let buffer = ''
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString()
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (line === 'ready') setTimeout(() => { child.kill('SIGKILL') }, between(20, 700))
      else if (line.startsWith('ack ')) acked.push(line.slice(4))
    }
  })
  const { killed, code } = await ended(child)
  if (!killed) throw new Error(`library writer exited ${code}: ${stderr.slice(-500)}`)
  return { kills: 1, acked }
}

/** Mean lifetime of a completed CLI write, so kills land across the whole of one. */
let cliMeanMs = 2500

/** The CLI lane: `isnad remember` and `isnad attest` processes, one killed at a random point of its life. */
async function cliLane (home: string, round: number, witness: string, lastMemory: string | undefined): Promise<LaneResult> {
  const acked: string[] = []
  let memory = lastMemory
  for (let attempt = 0; attempt < 6; attempt++) {
    const attest = memory !== undefined && attempt % 2 === 1
    const args = attest
      ? ['--home', home, '--json', 'attest', memory as string, 'confirm', '--as', witness]
      : ['--home', home, '--json', 'remember', '--type', 'fact', '--tag', 'damage', `cli r${round} a${attempt}`]
    const started = performance.now()
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
    const timer = setTimeout(() => { child.kill('SIGKILL') }, between(Math.round(cliMeanMs * 0.25), Math.round(cliMeanMs * 1.1)))
    const { killed, code } = await ended(child)
    clearTimeout(timer)
    if (killed) return { kills: 1, acked, ...(memory === undefined ? {} : { lastMemory: memory }) }
    if (code !== 0) throw new Error(`isnad ${args[3] ?? ''} exited ${code}: ${stderr.slice(-500)}`)
    cliMeanMs = 0.8 * cliMeanMs + 0.2 * (performance.now() - started)
    const out = JSON.parse(stdout) as { id?: string, attestation?: string }
    const id = attest ? out.attestation : out.id
    if (id === undefined) throw new Error(`isnad ${args[3] ?? ''} printed no id: ${stdout.slice(0, 200)}`)
    acked.push(id)
    if (!attest) memory = id
  }
  return { kills: 0, acked, ...(memory === undefined ? {} : { lastMemory: memory }) }
}

/** The daemon lane: `isnad start`, two HTTP clients remembering and attesting, the daemon killed mid-stream. */
async function daemonLane (home: string, round: number, witness: string): Promise<LaneResult> {
  const dataDir = nodePaths(home).data
  const child = spawn(process.execPath, [BIN, '--home', home, 'start', '--listen', '/ip4/127.0.0.1/tcp/0', '--heartbeat', '1'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000) })
  const acked: string[] = []
  try {
    let info = await findDaemon(dataDir)
    for (let waited = 0; (info === null || info.pid !== child.pid) && waited < 120_000; waited += 100) {
      if (child.exitCode !== null) throw new Error(`isnad start exited ${child.exitCode}: ${stderr}`)
      await sleep(100)
      info = await findDaemon(dataDir)
    }
    if (info === null || info.pid !== child.pid) throw new Error(`isnad start did not come up: ${stderr}`)
    const ops = createHttpOperations({ url: info.url, token: await readApiToken(dataDir) })
    const author = await ops.resolveSigner()
    const signer = await ops.resolveSigner(witness)
    let stop = false
    const client = async (n: number): Promise<void> => {
      for (let k = 0; !stop; k++) {
        try {
          const view = await ops.remember({ type: 'fact', summary: `daemon r${round} c${n} m${k}`, tags: ['damage'] }, author)
          acked.push(view.id)
          if (k % 2 === 0) acked.push((await ops.attest({ memory: view.id, verdict: 'confirm' }, signer)).id)
        } catch {
          return // the daemon is gone: what was not answered was not acknowledged
        }
      }
    }
    const clients = [client(0), client(1)]
    await sleep(between(50, 1500))
    child.kill('SIGKILL')
    stop = true
    await Promise.all(clients)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  const { killed } = await ended(child)
  return { kills: killed ? 1 : 0, acked }
}

/** Every record id the ledger holds. */
async function ledgerIds (home: string): Promise<Set<string>> {
  const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
  try {
    const ids = new Set<string>()
    for await (const event of ledger.readEvents()) {
      const record = recordOfEvent(event)
      if (record !== null) ids.add(record.id)
    }
    return ids
  } finally {
    await ledger.close()
  }
}

function p50 (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)
}

async function main (): Promise<void> {
  const started = performance.now()
  const summary: Summary = {
    kills: 0, byLane: { library: 0, cli: 0, daemon: 0 }, acknowledged: 0, lost: 0, lostIds: [], verifies: 0, unhealthy: [], homes: 0, durationS: 0, recoverMsP50: 0, verifyMsP50: 0, errors: []
  }
  const recoverMs: number[] = []
  const verifyMs: number[] = []
  let home = ''
  let witness = ''
  let acked: string[] = []
  let lastMemory: string | undefined
  let homeKills = PER_HOME
  for (let round = 0; summary.kills < KILLS; round++) {
    if (homeKills >= PER_HOME) {
      if (home !== '') await rm(home, { recursive: true, force: true })
      home = await mkdtemp(join(tmpdir(), 'isnad-damage-long-'))
      await initHome(home)
      witness = (await createKeystore({ directory: join(home, 'keys') }).create({ label: 'witness' })).did
      acked = []
      lastMemory = undefined
      homeKills = 0
      summary.homes++
    }
    const lane = LANES[round % LANES.length] as Lane
    let result: LaneResult
    try {
      result = lane === 'library'
        ? await libraryLane(home, round, witness)
        : lane === 'cli' ? await cliLane(home, round, witness, lastMemory) : await daemonLane(home, round, witness)
    } catch (err) {
      summary.errors.push(`round ${round} ${lane}: ${err instanceof Error ? err.message : String(err)}`)
      progress(`round ${round} ${lane}: ERROR ${summary.errors.at(-1) ?? ''}`)
      if (summary.errors.length > 20) break
      continue
    }
    if (result.lastMemory !== undefined) lastMemory = result.lastMemory
    acked.push(...result.acked)
    summary.acknowledged += result.acked.length
    summary.kills += result.kills
    summary.byLane[lane] += result.kills
    homeKills += result.kills

    // Recovery: what the next writer does at open.
    let t = performance.now()
    const node = await LocalNode.open({ home })
    await node.close()
    recoverMs.push(performance.now() - t)

    // `isnad ledger verify`, recorded like the command records it.
    t = performance.now()
    const report = await auditDataDir({
      dataDir: nodePaths(home).data, scope: 'default', verifier: nodeCryptoVerifier, now: Date.now, indexCheck: async (facts) => await checkIndexAgainstLedger(home, facts)
    })
    await writeAuditResults(report)
    verifyMs.push(performance.now() - t)
    summary.verifies++
    if (report.status !== 'healthy') {
      summary.unhealthy.push({ round, lane, status: report.status, findings: report.findings.map((f) => `${f.kind} ${f.file}: ${f.message}`) })
    }

    // No acknowledged record lost: in the ledger and in the index.
    const inLedger = await ledgerIds(home)
    const reader = await LocalNode.open({ home, mode: 'read' })
    try {
      for (const id of acked) {
        if (!inLedger.has(id) || !await reader.store.exists(id)) {
          summary.lost++
          summary.lostIds.push(`${id} (${inLedger.has(id) ? 'missing from the index' : 'missing from the ledger'}, round ${round} ${lane})`)
        }
      }
    } finally {
      await reader.close()
    }
    if (round % 10 === 0 || report.status !== 'healthy') {
      progress(`round ${round} ${lane}: kills ${summary.kills}/${KILLS}, acked ${summary.acknowledged}, lost ${summary.lost}, verify ${report.status}` +
        report.findings.slice(0, 3).map((f) => `\n    ${f.kind} ${f.file}: ${f.message}`).join(''))
    }
  }
  if (home !== '') await rm(home, { recursive: true, force: true })
  summary.durationS = Math.round((performance.now() - started) / 1000)
  summary.recoverMsP50 = p50(recoverMs)
  summary.verifyMsP50 = p50(verifyMs)
  const text = JSON.stringify(summary, null, 2)
  process.stdout.write(`${text}\n`)
  if (OUT !== '') await writeFile(OUT, `${text}\n`)
  process.exitCode = summary.lost === 0 && summary.unhealthy.length === 0 && summary.errors.length === 0 ? 0 : 1
}

await main()
