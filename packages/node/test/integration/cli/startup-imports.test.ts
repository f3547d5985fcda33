import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { REPO, withTempDir } from './run-cli.js'

/*
 * Every CLI command pays for what `bin/isnad.js` loads before it runs, so the heavy stacks load only
 * behind the commands that use them (the daemon's libp2p for `start`, the MCP SDK for `mcp`, the
 * UnixFS importer for anchors). This checks which modules a command resolves, not how long it takes.
 */

const HOOK = join(REPO, 'test/fixtures/record-imports.mjs')

/** The heavy packages, as they appear in a resolved file URL. */
const HEAVY = {
  libp2p: '/node_modules/libp2p/',
  gossipsub: '/node_modules/@libp2p/gossipsub/',
  mcpSdk: '/node_modules/@modelcontextprotocol/sdk/',
  unixfsImporter: '/node_modules/ipfs-unixfs-importer/',
  blockstore: '/node_modules/blockstore-level/',
  zodOpenApi: '/node_modules/@hono/zod-openapi/'
} as const

/** Runs the built CLI with the recording hook and returns its exit code and the resolved URLs. */
async function loadedBy (args: string[], dir: string): Promise<{ code: number, urls: string[] }> {
  const log = join(dir, `imports-${args.join('-').replace(/[^a-z-]/gi, '')}.txt`)
  const child = spawn(process.execPath, ['--import', HOOK, join(REPO, 'bin/isnad.js'), ...args], {
    env: { ...process.env, ISNAD_IMPORT_LOG: log, ISNAD_HOME: dir }, stdio: ['ignore', 'ignore', 'inherit']
  })
  const code = await new Promise<number>((resolve) => child.on('close', (c) => { resolve(c ?? -1) }))
  return { code, urls: (await readFile(log, 'utf8')).split('\n') }
}

function heavyIn (urls: string[]): string[] {
  return Object.entries(HEAVY).filter(([, path]) => urls.some((url) => url.includes(path))).map(([name]) => name)
}

describe('CLI start-up loads only what the command needs', () => {
  beforeAll(() => { ensureBuilt() }, 120_000)

  it.each([['--version'], ['--help'], ['sim', '--help']])('%s loads none of the heavy stacks', async (...args) => {
    await withTempDir(async (dir) => {
      const { code, urls } = await loadedBy(args, dir)
      expect(code).toBe(0)
      // The hook saw the CLI itself, so an empty list cannot pass for a clean one.
      expect(urls.some((url) => url.endsWith('/dist/src/cli/index.js'))).toBe(true)
      expect(heavyIn(urls)).toEqual([])
    })
  })

  it('a local command opens the node without the network, MCP or HTTP server stacks', async () => {
    await withTempDir(async (dir) => {
      expect((await loadedBy(['init'], dir)).code).toBe(0)
      const { code, urls } = await loadedBy(['status'], dir)
      expect(code).toBe(0)
      expect(urls.some((url) => url.includes('/node_modules/level/'))).toBe(true)
      expect(heavyIn(urls).filter((name) => name !== 'unixfsImporter' && name !== 'blockstore')).toEqual([])
    })
  })

  it('the recording sees the heavy stacks where they belong: mcp loads the MCP SDK', async () => {
    await withTempDir(async (dir) => {
      // `mcp` ends when its stdin ends (ignored stdin is at its end at once).
      const { urls } = await loadedBy(['mcp'], dir)
      expect(heavyIn(urls)).toContain('mcpSdk')
    })
  })
})
