import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, watch, type FSWatcher } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { findDaemon } from '../src/api-access/daemon-file.js'
import { createHttpOperations } from '../src/api-access/client.js'
import { readApiToken } from '../src/api-access/token.js'
import { nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import { createKeystore } from '../src/keystore/index.js'
import { auditDataDir, writeAuditResults } from '../src/ledger/audit/index.js'
import { TORN_EVIDENCE_DIR, WRITER_LOCK_FILE } from '../src/ledger/constants.js'
import { initHome, LocalNode } from '../src/node/index.js'
import { nodePaths } from '../src/home/index.js'
import { checkIndexAgainstLedger } from '../src/node/audit/index-check.js'

/*
 * The long form of the damage matrix: kill -9 a writer of a node home at random points,
 * again and again, across the three ways a home is written: the library (a LocalNode in its own
 * process), the CLI (`isnad remember` / `isnad attest`, each its own process taking the writer
 * lock), and the daemon (`isnad start`, written to over its HTTP API). After every kill: the node is
 * opened for writing (recovery: torn tails cut, the index replayed up to the ledger), the whole data
 * directory is audited (`isnad ledger verify`, results recorded so the next audit checks the
 * high-water marks), and every record whose write was acknowledged before the kill must be in the
 * ledger and in the index.
 *
 * Kills are aimed at writes in flight, not at process start-up (which is most of a CLI process's
 * life): a library writer (remembers, attests, and sync pages of large records, which are pack
 * files) is killed at a random moment within a write it has begun (`begin` … `ack` on its stdout), a CLI process at a random moment after it took the home's writer lock, a daemon
 * while its clients have requests outstanding. The summary counts how many kills landed mid-write
 * and how many left a torn line that recovery cut off (and recorded in governance/findings/torn/).
 * `--jobs` runs that many homes at once (the rounds of one home stay sequential: one writer).
 *
 *   npm run build && node dist/bench/damage-long.js --kills=1000 [--jobs=3] [--per-home=25] [--minutes=N] [--out=file.json]
 *   (or `npm run bench:damage -- --kills=1000 …`)
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
/** @default 1 — homes written and killed at once; each job is its own home and writers. */
const JOBS = Math.max(1, Number(arg('jobs', '1')))
/** @default 0 — stop starting rounds after this many minutes (0: no limit); the summary says so. */
const MINUTES = Number(arg('minutes', '0'))
const ALL_LANES = ['library', 'cli', 'daemon'] as const
type Lane = (typeof ALL_LANES)[number]
/**
 * The lanes in turn (a lane may repeat). A daemon takes several seconds to start, so by default it
 * has one turn in five. `--lanes=daemon` runs only that (development).
 * @default library,cli,library,cli,daemon
 */
const LANES = arg('lanes', 'library,cli,library,cli,daemon').split(',').filter((l): l is Lane => (ALL_LANES as readonly string[]).includes(l))

interface LaneResult {
  kills: number
  acked: string[]
  lastMemory?: string
  /** The kill landed between the start of a write and its acknowledgement (library, daemon) or while the process held the writer lock (CLI). */
  midWrite: boolean
  /** The write in flight was a sync page of large records, a pack file beside the ledger (library lane). */
  midPage?: boolean
}

interface Summary {
  kills: number
  byLane: Record<Lane, number>
  /** Kills that landed while a write was in flight (see LaneResult.midWrite). */
  midWrite: number
  midWriteByLane: Record<Lane, number>
  /** Of those, kills inside a sync page's write (its pack file, then the event naming it). */
  midPage: number
  /** Recoveries that found and cut a torn line (evidence in governance/findings/torn/). */
  tornTails: number
  acknowledged: number
  lost: number
  lostIds: string[]
  verifies: number
  unhealthy: Array<{ round: number, lane: Lane, status: string, findings: string[] }>
  homes: number
  jobs: number
  durationS: number
  /** Stopped by --minutes before reaching --kills. */
  stoppedByTime: boolean
  /** The mean of the 1-minute load average sampled after every round, and the machine's CPUs. */
  loadAvgMean: number
  cpus: number
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

/** Mean time from a library writer's `begin` to its `ack`: kills are drawn within it. */
let libraryWriteMs = 60

/** The library lane: a LocalNode writing in a loop, killed at a random moment inside its n-th write (n = 1..4). */
async function libraryLane (home: string, round: number, witness: string): Promise<LaneResult> {
  const child = spawn(process.execPath, [WRITER, home, String(round), witness], { stdio: ['ignore', 'pipe', 'pipe'] })
  const acked: string[] = []
  const aimAt = between(1, 5)
  let begins = 0
  let beganAt = 0
  // A write begun and not acknowledged yet (a sync page acknowledges its records with one `ack` line each).
  let inFlight = false
  let pageInFlight = false
  let buffer = ''
  let stderr = ''
  let stalled: NodeJS.Timeout | undefined
  const kill = (): void => { child.kill('SIGKILL') }
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString()
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (line === 'ready') stalled = setTimeout(kill, 30_000) // a writer that stops writing is still killed
      else if (line === 'begin' || line === 'begin page') {
        begins++
        beganAt = performance.now()
        inFlight = true
        pageInFlight = line === 'begin page'
        if (begins === aimAt) setTimeout(kill, Math.random() * libraryWriteMs * 1.2)
      } else if (line.startsWith('ack ')) {
        acked.push(line.slice(4))
        if (inFlight) libraryWriteMs = 0.9 * libraryWriteMs + 0.1 * (performance.now() - beganAt)
        inFlight = false
      }
    }
  })
  const { killed, code } = await ended(child)
  clearTimeout(stalled)
  if (!killed) throw new Error(`library writer exited ${code}: ${stderr.slice(-500)}`)
  // 'close' comes after stdout is drained: a write begun and never acknowledged was in flight.
  return { kills: 1, acked, midWrite: inFlight, midPage: inFlight && pageInFlight }
}

/** Mean time a completed CLI write held the writer lock (from the lock's creation to exit). */
let cliLockedMs = 800

/**
 * The CLI lane: `isnad remember` and `isnad attest` processes. The aimed one (the first or the
 * second) is killed at a random moment after it created `coordination/writer.lock`, so the kill lands
 * in recovery, the write or the close rather than in Node's start-up; the ones before it complete.
 */
async function cliLane (home: string, round: number, witness: string, lastMemory: string | undefined): Promise<LaneResult> {
  const acked: string[] = []
  const lockPath = join(nodePaths(home).data, WRITER_LOCK_FILE)
  const aimAt = between(0, 2)
  let memory = lastMemory
  for (let attempt = 0; attempt < 6; attempt++) {
    const attest = memory !== undefined && attempt % 2 === 1
    const args = attest
      ? ['--home', home, '--json', 'attest', memory as string, 'confirm', '--as', witness]
      : ['--home', home, '--json', 'remember', '--type', 'fact', '--tag', 'damage', `cli r${round} a${attempt}`]
    const aimed = attempt >= aimAt
    let lockedAt: number | undefined
    let timer: NodeJS.Timeout | undefined
    let watcher: FSWatcher | undefined
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const kill = (): void => { child.kill('SIGKILL') }
    try {
      watcher = watch(dirname(lockPath), (_event, name) => {
        if (name !== 'writer.lock' || lockedAt !== undefined || !existsSync(lockPath)) return
        lockedAt = performance.now()
        if (aimed) timer = setTimeout(kill, Math.random() * cliLockedMs * 1.1)
      })
    } catch {
      watcher = undefined // no coordination/ yet: the fallback timer below still kills
    }
    const fallback = aimed ? setTimeout(kill, 60_000) : undefined
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr?.on('data', (d: Buffer) => { stderr += d.toString() })
    const { killed, code } = await ended(child)
    watcher?.close()
    clearTimeout(timer)
    clearTimeout(fallback)
    if (killed) return { kills: 1, acked, midWrite: lockedAt !== undefined, ...(memory === undefined ? {} : { lastMemory: memory }) }
    if (code !== 0) throw new Error(`isnad ${args[3] ?? ''} exited ${code}: ${stderr.slice(-500)}`)
    if (lockedAt !== undefined) cliLockedMs = 0.8 * cliLockedMs + 0.2 * (performance.now() - lockedAt)
    const out = JSON.parse(stdout) as { id?: string, attestation?: string }
    const id = attest ? out.attestation : out.id
    if (id === undefined) throw new Error(`isnad ${args[3] ?? ''} printed no id: ${stdout.slice(0, 200)}`)
    acked.push(id)
    if (!attest) memory = id
  }
  return { kills: 0, acked, midWrite: false, ...(memory === undefined ? {} : { lastMemory: memory }) }
}

/** The daemon lane: `isnad start`, two HTTP clients remembering and attesting, the daemon killed mid-stream. */
async function daemonLane (home: string, round: number, witness: string): Promise<LaneResult> {
  const dataDir = nodePaths(home).data
  // A free API port each time: daemons of homes killed in parallel would otherwise all keep 4503
  // (`.memory/api.port`) and the later ones fail ADDRESS_IN_USE (a harness collision, not a finding).
  const apiPort = await freePort()
  const child = spawn(process.execPath, [BIN, '--home', home, 'start', '--listen', '/ip4/127.0.0.1/tcp/0', '--heartbeat', '1', '--api-port', String(apiPort)], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000) })
  const acked: string[] = []
  let midWrite = false
  try {
    let info = await findDaemon(dataDir)
    for (let waited = 0; (info === null || info.pid !== child.pid) && waited < 120_000; waited += 100) {
      if (child.exitCode !== null) throw new Error(`isnad start exited ${child.exitCode}: ${stderr}`)
      await sleep(100)
      info = await findDaemon(dataDir)
    }
    if (info === null || info.pid !== child.pid) throw new Error(`isnad start did not come up: ${stderr}`)
    const ops = createHttpOperations({ url: info.url, token: await readApiToken(dataDir) })
    let stop = false
    let inFlight = 0
    const client = async (n: number): Promise<void> => {
      for (let k = 0; !stop; k++) {
        try {
          inFlight++
          const view = await ops.call('remember', { type: 'fact', summary: `daemon r${round} c${n} m${k}`, tags: ['damage'] }).finally(() => { inFlight-- })
          acked.push(view.id)
          if (k % 2 === 0) {
            inFlight++
            acked.push((await ops.call('attest', { id: view.id, verdict: 'confirm', as: witness }).finally(() => { inFlight-- })).attestation)
          }
        } catch {
          return // the daemon is gone: what was not answered was not acknowledged
        }
      }
    }
    const clients = [client(0), client(1)]
    await sleep(between(50, 1500))
    midWrite = inFlight > 0
    child.kill('SIGKILL')
    stop = true
    await Promise.all(clients)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  const { killed } = await ended(child)
  return { kills: killed ? 1 : 0, acked, midWrite: killed && midWrite }
}

async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function p50 (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)
}

async function countTorn (home: string): Promise<number> {
  return (await readdir(join(nodePaths(home).data, TORN_EVIDENCE_DIR)).catch(() => [])).length
}

const started = performance.now()
const summary: Summary = {
  kills: 0,
  byLane: { library: 0, cli: 0, daemon: 0 },
  midWrite: 0,
  midWriteByLane: { library: 0, cli: 0, daemon: 0 },
  midPage: 0,
  tornTails: 0,
  acknowledged: 0,
  lost: 0,
  lostIds: [],
  verifies: 0,
  unhealthy: [],
  homes: 0,
  jobs: JOBS,
  durationS: 0,
  stoppedByTime: false,
  loadAvgMean: 0,
  cpus: 0,
  recoverMsP50: 0,
  verifyMsP50: 0,
  errors: []
}
const recoverMs: number[] = []
const verifyMs: number[] = []
const loads: number[] = []
let round = 0

function finish (): void {
  summary.durationS = Math.round((performance.now() - started) / 1000)
  summary.recoverMsP50 = p50(recoverMs)
  summary.verifyMsP50 = p50(verifyMs)
  summary.loadAvgMean = Math.round(100 * loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)) / 100
}

const outOfTime = (): boolean => MINUTES > 0 && performance.now() - started > MINUTES * 60_000

/** One job: its own home (a fresh one every PER_HOME kills), its rounds in sequence. */
async function job (): Promise<void> {
  let home = ''
  let witness = ''
  let acked: string[] = []
  let lastMemory: string | undefined
  let homeKills = PER_HOME
  let torn = 0
  try {
    while (summary.kills < KILLS && summary.errors.length <= 20) {
      if (outOfTime()) { summary.stoppedByTime = true; break }
      if (homeKills >= PER_HOME) {
        if (home !== '') await rm(home, { recursive: true, force: true })
        home = await mkdtemp(join(tmpdir(), 'isnad-damage-long-'))
        await initHome(home)
        witness = (await createKeystore({ directory: join(home, 'keys') }).create({ label: 'witness' })).did
        acked = []
        lastMemory = undefined
        homeKills = 0
        torn = 0
        summary.homes++
      }
      const r = round++
      const lane = LANES[r % LANES.length] as Lane
      let result: LaneResult
      try {
        result = lane === 'library'
          ? await libraryLane(home, r, witness)
          : lane === 'cli' ? await cliLane(home, r, witness, lastMemory) : await daemonLane(home, r, witness)
      } catch (err) {
        summary.errors.push(`round ${r} ${lane}: ${err instanceof Error ? err.message : String(err)}`)
        progress(`round ${r} ${lane}: ERROR ${summary.errors.at(-1) ?? ''}`)
        continue
      }
      if (result.lastMemory !== undefined) lastMemory = result.lastMemory
      acked.push(...result.acked)
      summary.acknowledged += result.acked.length
      summary.kills += result.kills
      summary.byLane[lane] += result.kills
      if (result.midWrite) { summary.midWrite++; summary.midWriteByLane[lane]++ }
      if (result.midPage === true) summary.midPage++
      homeKills += result.kills

      // Recovery: what the next writer does at open. While it is open, every acknowledged record
      // must be in the index (its store answers as the node would).
      let t = performance.now()
      const missingFromIndex: string[] = []
      const node = await LocalNode.open({ home })
      try {
        recoverMs.push(performance.now() - t)
        for (const id of acked) if (!await node.store.exists(id)) missingFromIndex.push(id)
      } finally {
        await node.close()
      }
      const tornNow = await countTorn(home)
      summary.tornTails += tornNow - torn
      torn = tornNow

      // `isnad ledger verify`, recorded like the command records it; its index check is handed every
      // record id the ledger holds, which is what the acknowledged records are looked up in.
      t = performance.now()
      let inLedger: ReadonlySet<string> = new Set()
      const report = await auditDataDir({
        dataDir: nodePaths(home).data,
        scope: 'default',
        verifier: nodeCryptoVerifier,
        now: Date.now,
        indexCheck: async (facts) => {
          inLedger = facts.ids
          return await checkIndexAgainstLedger(home, facts)
        }
      })
      await writeAuditResults(report)
      verifyMs.push(performance.now() - t)
      summary.verifies++
      if (report.status !== 'healthy') {
        summary.unhealthy.push({ round: r, lane, status: report.status, findings: report.findings.map((f) => `${f.kind} ${f.file}: ${f.message}`) })
      }

      // No acknowledged record lost: in the ledger and in the index.
      for (const id of acked) {
        if (!inLedger.has(id) || missingFromIndex.includes(id)) {
          summary.lost++
          summary.lostIds.push(`${id} (${inLedger.has(id) ? 'missing from the index' : 'missing from the ledger'}, round ${r} ${lane})`)
        }
      }
      loads.push(loadavg()[0] ?? 0)
      if (r % 10 === 0 || report.status !== 'healthy') {
        progress(`round ${r} ${lane}: kills ${summary.kills}/${KILLS}, mid-write ${summary.midWrite} (in a sync page ${summary.midPage}), torn ${summary.tornTails}, acked ${summary.acknowledged}, lost ${summary.lost}, verify ${report.status}, load ${(loadavg()[0] ?? 0).toFixed(1)}` +
          report.findings.slice(0, 3).map((f) => `\n    ${f.kind} ${f.file}: ${f.message}`).join(''))
        finish()
        if (OUT !== '') await writeFile(OUT, `${JSON.stringify(summary, null, 2)}\n`) // partial figures, in case the run is stopped
      }
    }
  } finally {
    if (home !== '') await rm(home, { recursive: true, force: true })
  }
}

async function main (): Promise<void> {
  summary.cpus = cpus().length
  await Promise.all(Array.from({ length: JOBS }, async () => { await job() }))
  finish()
  const text = JSON.stringify(summary, null, 2)
  process.stdout.write(`${text}\n`)
  if (OUT !== '') await writeFile(OUT, `${text}\n`)
  process.exitCode = summary.lost === 0 && summary.unhealthy.length === 0 && summary.errors.length === 0 ? 0 : 1
}

await main()
