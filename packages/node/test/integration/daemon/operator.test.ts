import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { runIsnad } from '../cli/run-cli.js'
import { startChild, type ChildDaemon, type LogLine } from './child-daemon.js'
import { freePort } from '../../fixtures/free-port.js'

/*
 * A daemon an operator can watch, with real `isnad start` processes on 127.0.0.1: its
 * log, `isnad status`, the errors for a busy port and a locked home, and the API port kept across
 * a restart.
 */

/** A peer id nobody runs, for a bootstrap address that cannot be reached. */
const ABSENT_PEER = '12D3KooWMWVPf5mN36L9wcZ98CZwKqZr3tsWNHQBeigtRRNJrE4a'
const LOOPBACK = ['--listen', '/ip4/127.0.0.1/tcp/0']

interface Status {
  running: boolean
  state: string
  pid: number | null
  peer_id: string | null
  addrs: string[]
  peers: number | null
  api: string | null
  dashboard: string | null
  api_port: number | null
  home: string
  records: Record<string, number> | null
}

async function status (home: string): Promise<Status> {
  const result = await runIsnad(['status', '--json'], { home })
  expect(result.code, result.stderr).toBe(0)
  return result.json<Status>()
}

function tcpPortOf (addr: string): string {
  return /\/tcp\/(\d+)/.exec(addr)?.[1] ?? ''
}

/** No stack trace: no line of the output looks like a V8 frame. */
function expectNoStack (text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
}

describe('a daemon an operator can watch', () => {
  const homes: string[] = []
  const running: ChildDaemon[] = []
  let alice: { home: string, agent: string }
  let bob: { home: string, agent: string }

  const newHome = async (name: string): Promise<{ home: string, agent: string }> => {
    const home = await mkdtemp(join(tmpdir(), `isnad-operator-${name}-`))
    homes.push(home)
    return { home, agent: (await initHome(home)).defaultKey.did }
  }
  const start = async (home: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ChildDaemon> => {
    const daemon = await startChild(home, args, env)
    running.push(daemon)
    return daemon
  }
  const stop = async (daemon: ChildDaemon): Promise<void> => {
    await daemon.stop()
    running.splice(running.indexOf(daemon), 1)
  }

  beforeAll(async () => {
    ensureBuilt()
    alice = await newHome('alice')
    bob = await newHome('bob')
  }, 300_000)

  afterAll(async () => {
    for (const daemon of [...running]) await daemon.stop()
    for (const home of homes) await rm(home, { recursive: true, force: true })
  })

  it('logs peers, API requests, witness requests and attestations; status says what runs; an unreachable bootstrap peer is a warning', async () => {
    const a = await start(alice.home, LOOPBACK)
    const unreachable = `/ip4/127.0.0.1/tcp/${await freePort()}/p2p/${ABSENT_PEER}`
    const b = await start(bob.home, [...LOOPBACK, '--bootstrap', a.addrs[0] ?? '', '--bootstrap', unreachable], { ISNAD_LOG_LEVEL: 'debug' })

    await a.waitForLog('bob connecting', (l) => l.msg === 'peer connected' && l.peer === b.peerId)
    const warning = await b.waitForLog('the unreachable bootstrap peer', (l) => l.code === 'PEER_UNREACHABLE')
    expect(warning).toMatchObject({ level: 'warn', peer: ABSENT_PEER, addr: unreachable })
    await b.waitForLog('alice as bootstrap peer', (l) => l.msg === 'bootstrap peer connected' && l.peer === a.peerId)

    const aStatus = await status(alice.home)
    expect(aStatus).toMatchObject({
      running: true, state: 'running', pid: a.pid, peer_id: a.peerId, addrs: a.addrs, api: a.api, dashboard: `${a.api}/dashboard/`,
      api_port: Number(new URL(a.api).port), home: alice.home
    })
    expect(aStatus.peers).toBeGreaterThanOrEqual(1)
    expect((await status(bob.home)).peers).toBeGreaterThanOrEqual(1) // bob runs on without the absent peer
    await a.waitForLog('the status request', (l) => l.msg === 'request' && l.route === '/v1/status' && l.status === 200 && typeof l.ms === 'number')

    const memory = (await runIsnad(['remember', 'watched by its operator', '--quiet'], { home: alice.home })).stdout.trim()
    await a.waitForLog('the remember request', (l) => l.msg === 'request' && l.method === 'POST' && l.route === '/v1/memories' && l.status === 201)
    expect((await runIsnad(['witness', 'request', memory, '--to', bob.agent], { home: alice.home })).code).toBe(0)
    await b.waitForLog('the witness request arriving', (l) => l.msg === 'witness request received' && l.memory === memory && l.requester === alice.agent && l.level === 'info')
    await b.waitForLog('the inbox item', (l) => l.msg.startsWith('inbox') && l.memory === memory)
    expect((await runIsnad(['attest', memory, 'confirm'], { home: bob.home })).code).toBe(0)
    const attestation = await a.waitForLog('the attestation arriving', (l) => l.msg === 'attestation received')
    expect(attestation).toMatchObject({ level: 'info', memory, witness: bob.agent, verdict: 'confirm', source: 'gossip' })

    // Quiet by default: alice (info) logs no debug line; bob ($ISNAD_LOG_LEVEL=debug) does.
    expect(a.log().filter((l) => l.level === 'debug')).toEqual([])
    expect(b.log().some((l: LogLine) => l.level === 'debug' && l.msg === 'connection opened')).toBe(true)

    await stop(b)
    await a.waitForLog('bob leaving', (l) => l.msg === 'peer disconnected' && l.peer === b.peerId)
    await stop(a)
    expect(a.log().at(-1)).toMatchObject({ msg: 'daemon stopped', peer: a.peerId })
    // Every line of stderr is a log line.
    expect(a.stderr().trim().split('\n').every((l) => l.startsWith('{'))).toBe(true)
  }, 300_000)

  it('status without a daemon: not running, the home\'s peer id and kept API port; none before the first start', async () => {
    const stopped = await status(alice.home)
    const first = (await status(alice.home)).peer_id
    expect(stopped).toMatchObject({ running: false, state: 'stopped', addrs: [], peers: null, api: null, dashboard: null, home: alice.home })
    expect(first).toMatch(/^12D3KooW/)
    expect(stopped.api_port).toBeGreaterThan(0)
    expect(stopped.records?.memory).toBe(1)
    const fresh = await newHome('fresh')
    expect(await status(fresh.home)).toMatchObject({ running: false, state: 'stopped', peer_id: null, api_port: null, records: { memory: 0 } })
    const text = await runIsnad(['status'], { home: fresh.home })
    expect(text.stdout).toMatch(/^daemon: +not running/m)
  }, 120_000)

  it('keeps the API port across a restart, so the dashboard URL stays', async () => {
    const kept = (await status(alice.home)).api_port
    const again = await start(alice.home, LOOPBACK)
    expect(Number(new URL(again.api).port)).toBe(kept)
    expect((await status(alice.home)).dashboard).toBe(`http://127.0.0.1:${kept}/dashboard/`)
    await stop(again)
  }, 120_000)

  it('a busy port, a kept API port taken, and a home another daemon holds: stable codes, what to do, no stack trace', async () => {
    const a = await start(alice.home, LOOPBACK)
    const other = await newHome('other')
    const listen = `/ip4/127.0.0.1/tcp/${tcpPortOf(a.addrs[0] ?? '')}`

    const busy = await runIsnad(['--json', 'start', '--listen', listen], { home: other.home })
    expect(busy.code, busy.stderr).toBe(1)
    expect(busy.errorCode()).toBe('ADDRESS_IN_USE')
    expect(busy.stderr).toContain(listen)
    expect(busy.stderr).toContain('--listen')
    expect(busy.stderr).not.toContain('faultTolerance')
    expectNoStack(busy.stderr)

    const apiPort = new URL(a.api).port
    const busyApi = await runIsnad(['start', ...LOOPBACK, '--api-port', apiPort], { home: other.home })
    expect(busyApi.code).toBe(1)
    // A line of its own: the daemon's log lines (JSON, on stderr) may come first, as far as start got.
    expect(busyApi.stderr).toMatch(new RegExp(`^isnad: error ADDRESS_IN_USE: the API port ${apiPort} \\(given by --api-port\\)`, 'm'))
    expectNoStack(busyApi.stderr)

    const second = await runIsnad(['--json', 'start', ...LOOPBACK], { home: alice.home })
    expect(second.code).toBe(1)
    expect(second.errorCode()).toBe('STORE_LOCKED')
    expect(second.stderr).toContain(`pid ${a.pid}`)
    expectNoStack(second.stderr)
    await stop(a)

    // A home held by another process that is no daemon (here: this test's own LocalNode).
    const held = await LocalNode.open({ home: other.home })
    try {
      const locked = await runIsnad(['--json', 'start', ...LOOPBACK], { home: other.home })
      expect(locked.code).toBe(1)
      expect(locked.errorCode()).toBe('STORE_LOCKED')
      expectNoStack(locked.stderr)
    } finally {
      await held.close()
    }
  }, 300_000)
})
