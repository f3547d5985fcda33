import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { initHome } from '../../../src/node/index.js'
import { startFakeDaemon } from './daemon-fixture.js'
import { runIsnad, withTempDir } from './run-cli.js'

/* `isnad config get|set|unset|show` on a home's .memory/config.json (docs/configuration.md). */

describe('isnad config', () => {
  beforeAll(() => { ensureBuilt() }, 300_000)

  it('sets, gets, shows and unsets keys, writing the file atomically in the keys\' order', async () => {
    await withTempDir(async (home) => {
      expect((await runIsnad(['config', 'show'], { home })).stdout).toMatch(/nothing set/)
      expect((await runIsnad(['config', 'set', 'api-port', '4603'], { home })).stdout).toBe('api-port = 4603\n')
      expect((await runIsnad(['config', 'set', 'listen', '/ip4/127.0.0.1/tcp/4601', '/ip4/127.0.0.1/tcp/4602/ws'], { home })).code).toBe(0)
      expect((await runIsnad(['config', 'set', 'mdns', 'on'], { home })).code).toBe(0)
      expect((await runIsnad(['config', 'set', 'anchor-dir', 'notes'], { home, cwd: home })).code).toBe(0)
      expect(JSON.parse(await readFile(join(home, '.memory/config.json'), 'utf8'))).toEqual({
        listen: ['/ip4/127.0.0.1/tcp/4601', '/ip4/127.0.0.1/tcp/4602/ws'], mdns: true, 'api-port': 4603, 'anchor-dir': [join(home, 'notes')]
      })
      expect(Object.keys(JSON.parse(await readFile(join(home, '.memory/config.json'), 'utf8')))).toEqual(['listen', 'mdns', 'api-port', 'anchor-dir'])
      expect((await runIsnad(['config', 'get', 'listen'], { home })).stdout).toBe('/ip4/127.0.0.1/tcp/4601\n/ip4/127.0.0.1/tcp/4602/ws\n')
      expect((await runIsnad(['config', 'get', 'mdns'], { home })).stdout).toBe('on\n')
      expect((await runIsnad(['--json', 'config', 'get', 'api-port'], { home })).json()).toBe(4603)

      const show = await runIsnad(['config', 'show'], { home, env: { ISNAD_API_PORT: '4700' } })
      expect(show.stdout).toMatch(/^api-port = 4603 {3}\(overridden by \$ISNAD_API_PORT\)$/m)
      expect(show.stdout).toMatch(/^listen = \/ip4\/127\.0\.0\.1\/tcp\/4601, \/ip4\/127\.0\.0\.1\/tcp\/4602\/ws$/m)
      expect((await runIsnad(['--json', 'config', 'show'], { home, env: { ISNAD_API_PORT: '4700' } })).json()).toMatchObject({
        file: join(home, '.memory/config.json'), values: { 'api-port': 4603 }, overridden_by_env: { 'api-port': 'ISNAD_API_PORT' }
      })

      expect((await runIsnad(['config', 'unset', 'mdns'], { home })).stdout).toBe('mdns unset\n')
      const unsetGet = await runIsnad(['config', 'get', 'mdns'], { home })
      expect([unsetGet.code, unsetGet.stdout]).toEqual([1, ''])
      expect((await runIsnad(['config', 'unset', 'mdns'], { home })).stdout).toBe('mdns was not set\n')
    })
  }, 60_000)

  it('refuses an unknown key or a bad value with USAGE (exit 2), naming the key, and changes nothing', async () => {
    await withTempDir(async (home) => {
      await runIsnad(['config', 'set', 'api-port', '4603'], { home })
      const before = await readFile(join(home, '.memory/config.json'), 'utf8')
      const cases: Array<[string[], RegExp]> = [
        [['config', 'set', 'api_port', '4603'], /"api_port" is not a configuration key; the keys are listen, /],
        [['config', 'get', 'port'], /"port" is not a configuration key/],
        [['config', 'set', 'api-port', '70000'], /api-port: must be a port 1-65535/],
        [['config', 'set', 'listen', 'localhost:4601'], /listen: value 1: "localhost:4601" is not a multiaddr/],
        [['config', 'set', 'bootstrap', '/ip4/10.0.0.1/tcp/4501'], /does not end in \/p2p\/<peer id>/],
        [['config', 'set', 'private-checks', 'maybe'], /private-checks: must be on or off/],
        [['config', 'set', 'log-level', 'loud'], /log-level: must be one of error, warn, info, debug/]
      ]
      for (const [args, message] of cases) {
        const run = await runIsnad(['--json', ...args], { home })
        expect(run.code, args.join(' ')).toBe(2)
        expect(run.errorCode(), args.join(' ')).toBe('USAGE')
        const error = JSON.parse(run.stderr.trim().split('\n').find((l) => l.startsWith('{')) ?? '{}') as { error?: { message?: string } }
        expect(error.error?.message, args.join(' ')).toMatch(message)
      }
      expect(await readFile(join(home, '.memory/config.json'), 'utf8')).toBe(before)
    })
  }, 60_000)

  it('names a file that is not JSON, or holds a bad key or value, CONFIG_INVALID, and never rewrites it', async () => {
    await withTempDir(async (home) => {
      await runIsnad(['config', 'set', 'api-port', '4603'], { home })
      const path = join(home, '.memory/config.json')
      for (const text of ['{"api-port": 4603', '{"api-port": "4603"}', '{"apiport": 4603}', '[]']) {
        await writeFile(path, text)
        for (const args of [['config', 'show'], ['config', 'get', 'api-port'], ['config', 'set', 'mdns', 'on'], ['config', 'unset', 'api-port']]) {
          const run = await runIsnad(['--json', ...args], { home })
          expect(run.code, `${text} ${args.join(' ')}`).toBe(1)
          expect(run.errorCode(), `${text} ${args.join(' ')}`).toBe('CONFIG_INVALID')
          expect(run.stderr, text).toContain(path)
        }
        expect(await readFile(path, 'utf8'), text).toBe(text)
      }
    })
  }, 60_000)

  it('changes the file while a daemon runs, saying the change takes effect at its restart', async () => {
    await withTempDir(async (home) => {
      await initHome(home)
      const daemon = await startFakeDaemon(home)
      try {
        const run = await runIsnad(['config', 'set', 'api-port', '4611'], { home })
        expect(run.code).toBe(0)
        expect(run.stderr).toMatch(/a daemon is running on this home: it takes the change when it is restarted/)
        expect(JSON.parse(await readFile(join(home, '.memory/config.json'), 'utf8'))).toEqual({ 'api-port': 4611 })
      } finally {
        await daemon.stop()
      }
    })
  }, 60_000)
})
