import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { freePort } from '../../fixtures/free-port.js'
import { initHome } from '../../../src/node/index.js'
import { startChild, type ChildDaemon } from '../daemon/child-daemon.js'
import { runIsnad } from './run-cli.js'

/*
 * A node configured once (docs/configuration.md): after `isnad config set listen …` and `isnad
 * config set api-port …`, a flagless `isnad start` listens on them, and again after a restart;
 * ISNAD_API_PORT beats the file and a flag beats both. Real daemons on 127.0.0.1, on free ports.
 */

/** Resolves once something accepts a TCP connection on 127.0.0.1:port. */
async function accepts (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => { resolve(false) })
  })
}

const portOf = (url: string): number => Number(new URL(url).port)
const tcpPortsOf = (addrs: string[]): number[] => addrs.flatMap((a) => /^\/ip4\/127\.0\.0\.1\/tcp\/(\d+)\/p2p\//.exec(a)?.[1] ?? []).map(Number)

describe('isnad start takes its settings from isnad config', () => {
  let home: string
  const running: ChildDaemon[] = []
  const start = async (args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ChildDaemon> => {
    // The test's own environment must not set what the test sets.
    const daemon = await startChild(home, args, { ISNAD_LISTEN: '', ISNAD_API_PORT: '', ...env })
    running.push(daemon)
    return daemon
  }
  const stopAll = async (): Promise<void> => { for (const daemon of running.splice(0)) await daemon.stop() }

  beforeAll(async () => {
    ensureBuilt()
    home = await mkdtemp(join(tmpdir(), 'isnad-config-start-'))
    await initHome(home)
  }, 300_000)
  afterEach(stopAll)
  afterAll(async () => {
    await stopAll()
    await rm(home, { recursive: true, force: true })
  })

  it('a flagless start listens on the configured address and API port, and on a restart too', async () => {
    const [listen, api] = [await freePort(), await freePort()]
    expect((await runIsnad(['config', 'set', 'listen', `/ip4/127.0.0.1/tcp/${listen}`], { home })).code).toBe(0)
    expect((await runIsnad(['config', 'set', 'api-port', String(api)], { home })).code).toBe(0)
    const got = await runIsnad(['--json', 'config', 'get', 'listen'], { home })
    expect(got.json()).toEqual([`/ip4/127.0.0.1/tcp/${listen}`])

    for (const round of ['first start', 'restart']) {
      const daemon = await start()
      expect(tcpPortsOf(daemon.addrs), round).toEqual([listen])
      expect(portOf(daemon.api), round).toBe(api)
      expect(await accepts(listen), round).toBe(true)
      expect(await accepts(api), round).toBe(true)
      await stopAll()
    }
  }, 120_000)

  it('flags beat the environment, which beats the file; config set while the daemon runs takes effect at the restart', async () => {
    const [fileApi, envApi, flagApi, listen, later] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()]
    await runIsnad(['config', 'set', 'api-port', String(fileApi)], { home })
    await runIsnad(['config', 'set', 'listen', `/ip4/127.0.0.1/tcp/${listen}`], { home })

    let daemon = await start([], { ISNAD_API_PORT: String(envApi) })
    expect(portOf(daemon.api)).toBe(envApi)
    await stopAll()
    daemon = await start(['--api-port', String(flagApi)], { ISNAD_API_PORT: String(envApi) })
    expect(portOf(daemon.api)).toBe(flagApi)

    // While it runs: the file changes, the daemon does not, and the command says when it will.
    const set = await runIsnad(['config', 'set', 'api-port', String(later)], { home })
    expect(set.code).toBe(0)
    expect(set.stderr).toMatch(/daemon is running.*restarted/)
    expect(JSON.parse(await readFile(join(home, '.memory/config.json'), 'utf8'))).toMatchObject({ 'api-port': later })
    expect(await accepts(later)).toBe(false)
    await stopAll()
    daemon = await start()
    expect(portOf(daemon.api)).toBe(later)
    expect(tcpPortsOf(daemon.addrs)).toEqual([listen])
  }, 120_000)

  it('refuses to start on a configuration file it cannot trust, and leaves the file as it was', async () => {
    const path = join(home, '.memory/config.json')
    for (const text of ['{"listen": ["/ip4/127.0.0.1/tcp/1"', '{"api-port": 99999}\n', '{"lissten": ["/ip4/127.0.0.1/tcp/1"]}\n']) {
      await writeFile(path, text)
      const run = await runIsnad(['--json', 'start'], { home })
      expect(run.code, text).toBe(1)
      expect(run.errorCode(), text).toBe('CONFIG_INVALID')
      expect(await readFile(path, 'utf8'), text).toBe(text)
    }
    await rm(path)
  }, 60_000)
})
