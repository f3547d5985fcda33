import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findDaemon, writeDaemonFile } from '../../../src/api-access/daemon-file.js'
import { nodePaths } from '../../../src/home/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { deadPid, normalize, startFakeDaemon, type FakeDaemon } from './daemon-fixture.js'
import { runIsnad, withTempDir, type CliResult } from './run-cli.js'

const UNKNOWN = 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki'

/** A home with its default agent and a second one, `bob`, to witness. */
async function initHome (): Promise<{ home: string, witness: string }> {
  const home = await mkdtemp(join(tmpdir(), 'isnad-cli-daemon-'))
  expect((await runIsnad(['init'], { home })).code).toBe(0)
  const witness = (await runIsnad(['id', 'new', '--label', 'bob', '--quiet'], { home })).stdout.trim()
  return { home, witness }
}

/**
 * The same commands, in text and --json, as a person or an agent would run them; each result
 * (exit status, stdout, stderr) normalized so that two homes compare whole.
 */
async function session (home: string, witness: string): Promise<string[]> {
  const outputs: string[] = []
  const run = async (...args: string[]): Promise<CliResult> => {
    const result = await runIsnad(args, { home })
    outputs.push(normalize(`$ isnad ${args[0] ?? ''} → ${result.code}\n${result.stdout}\n${result.stderr}`, home))
    return result
  }
  const first = (await run('remember', 'the build takes 40 s', '--tag', 'ci', '--tag', 'speed', '--body', 'measured twice\non a cold cache', '--confidence', '0.7')).stdout
  const memory = (await run('remember', 'deploys happen on Tuesdays', '--type', 'fact', '--tag', 'ci', '--json')).json<{ id: string }>().id
  await run('show', memory)
  await run('show', memory, '--json')
  // One witness per memory: a view lists its witnesses in record-id order, which differs between homes.
  await run('attest', /^memory (\S+)/.exec(first)?.[1] ?? '', 'confirm', '--as', witness, '--notes', 'seen it')
  await run('attest', memory, 'partial', '--as', witness, '--claim', 'on Tuesdays', '--json')
  await run('query')
  await run('query', '--tag', 'ci', '--min-trust', '0.3', '--json')
  await run('trust', 'explain', memory)
  const open = (await run('remember', 'who saw the outage?', '--quiet')).stdout.trim()
  await run('witness', 'request', open, '--to', witness, '--expires', '2099-01-01T00:00:00Z')
  await run('inbox', '--json')
  // `status` is not in the session: it says whether a daemon runs, which is where the homes differ.
  await run('id', 'list', '--json')
  // Errors: the same code and message either way.
  await run('attest', memory, 'confirm', '--json')
  await run('show', UNKNOWN)
  await run('peers')
  return outputs
}

describe('the CLI while a daemon holds the home', () => {
  let local: { home: string, witness: string }
  let remote: { home: string, witness: string }
  let daemon: FakeDaemon

  beforeAll(async () => {
    ensureBuilt()
    local = await initHome()
    remote = await initHome()
    daemon = await startFakeDaemon(remote.home)
  }, 120_000)

  afterAll(async () => {
    await daemon.stop()
    await rm(local.home, { recursive: true, force: true })
    await rm(remote.home, { recursive: true, force: true })
  })

  it('goes through the daemon and prints exactly what the local path prints', async () => {
    const [direct, through] = await Promise.all([session(local.home, local.witness), session(remote.home, remote.witness)])
    expect(through).toEqual(direct)
    for (const op of ['remember', 'show', 'attest', 'query', 'explainTrust', 'requestWitnesses', 'inbox', 'listKeys', 'peers']) {
      expect(daemon.calls, op).toContain(op)
    }
    // The commands succeeded although the test process holds the data directory's writer lock.
    expect(direct[0]).toMatch(/^\$ isnad remember → 0\n/)
    expect(through.find((o) => o.startsWith('$ isnad inbox'))).toContain('"summary": "who saw the outage?"')
    expect(through.at(-1)).toMatch(/^\$ isnad peers → 2\n\nisnad: error USAGE: peers needs a running network node/)
  }, 120_000)

  it('reports a refused input with the same code (the API checks the request, the node the record)', async () => {
    const args = ['remember', 'x', '--tag', 'two words', '--json']
    const [direct, through] = await Promise.all([runIsnad(args, { home: local.home }), runIsnad(args, { home: remote.home })])
    expect(through.errorCode(), through.stderr).toBe(direct.errorCode())
    expect(through.code).toBe(direct.code)
  })

  it('status says a daemon runs and reads the home through it; without one, that none runs', async () => {
    const through = await runIsnad(['status', '--json'], { home: remote.home })
    const direct = await runIsnad(['status', '--json'], { home: local.home })
    expect(daemon.calls).toContain('status')
    expect(through.json()).toMatchObject({ running: true, state: 'running', api: daemon.url, dashboard: `${daemon.url}/dashboard/`, home: remote.home })
    expect(direct.json()).toMatchObject({ running: false, state: 'stopped', api: null, dashboard: null, home: local.home })
    const counts = (r: CliResult): unknown => r.json<{ records: unknown, agents: unknown[] }>().records
    expect(counts(through)).toEqual(counts(direct))
  })

  it('reports UNAUTHORIZED when the token file does not hold the daemon\'s token', async () => {
    await daemon.spoilToken()
    try {
      const result = await runIsnad(['query', '--json'], { home: remote.home })
      expect(result.errorCode(), result.stderr).toBe('UNAUTHORIZED')
      expect(result.code).toBe(1)
      const text = await runIsnad(['status'], { home: remote.home })
      expect(text.stderr).toMatch(/^isnad: error UNAUTHORIZED: missing or wrong bearer token/)
    } finally {
      await daemon.restoreToken()
    }
    expect((await runIsnad(['status', '--json'], { home: remote.home })).code).toBe(0)
  })

  it('ignores a stale daemon file (its process is gone) and opens the home itself', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['init'], { home })).code).toBe(0)
      const data = nodePaths(home).data
      // Were it believed, the CLI would call a port nothing listens on and fail with IO_ERROR.
      await writeDaemonFile(data, { pid: await deadPid(), url: 'http://127.0.0.1:9', started_at: '2026-01-01T00:00:00Z' })
      expect(await findDaemon(data)).toBeNull()
      const remembered = await runIsnad(['remember', 'written without the daemon', '--quiet'], { home })
      expect(remembered.code, remembered.stderr).toBe(0)
      const shown = await runIsnad(['show', remembered.stdout.trim(), '--json'], { home })
      expect(shown.code, shown.stderr).toBe(0)
      expect(shown.json<{ content: { summary: string } }>().content.summary).toBe('written without the daemon')
    })
  })

  it('refuses what needs the network without a daemon: a clear USAGE error and exit 2, as every USAGE', async () => {
    for (const json of [false, true]) {
      const result = await runIsnad(['peers', ...(json ? ['--json'] : [])], { home: local.home })
      expect(result.code, result.stderr).toBe(2)
      expect(result.stdout).toBe('')
      if (json) expect(result.errorCode()).toBe('USAGE')
      expect(result.stderr).toContain('needs a running network node')
      expect(result.stderr).toContain('isnad start')
    }
  })
})
