import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { McpClientConfig } from '../../../src/cli/mcp-client-config.js'
import { ensureBuilt, WORKSPACE } from '../../fixtures/build-dist.js'
import { REPO } from './run-cli.js'

/** The version the CLI prints is package.json's, declared nowhere else. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version

/*
 * The README's recipes from outside the clone: `isnad` put on PATH the way `npm link` does
 * it (PATH -> <prefix>/bin/isnad -> ../lib/node_modules/isnad/bin/isnad, that directory a link to the
 * clone), run from another directory with a `node` on PATH that is not the clone's Node 22; then the
 * MCP client configuration that `isnad mcp --print-config` prints, started exactly as a client would.
 */

const exec = promisify(execFile)

describe('the isnad command outside the clone', () => {
  let scratch: string
  let elsewhere: string
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    ensureBuilt()
    scratch = await mkdtemp(join(tmpdir(), 'isnad-command-'))
    const prefix = join(scratch, 'prefix')
    await mkdir(join(prefix, 'lib/node_modules'), { recursive: true })
    await mkdir(join(prefix, 'bin'))
    await symlink(REPO, join(prefix, 'lib/node_modules/isnad'))
    await symlink('../lib/node_modules/isnad/bin/isnad', join(prefix, 'bin/isnad'))
    // A `node` on PATH that must not be the one used: the wrong Node would exit 97.
    const wrongNode = join(scratch, 'wrong-node')
    await mkdir(wrongNode)
    await writeFile(join(wrongNode, 'node'), '#!/bin/sh\necho "the wrong node ran" >&2\nexit 97\n')
    await chmod(join(wrongNode, 'node'), 0o755)
    // Nor may npm run: its start-up and its EBADENGINE warnings are what the command avoids.
    for (const npm of ['npm', 'npx']) {
      await writeFile(join(wrongNode, npm), `#!/bin/sh\necho "npm ran" >&2\nexit 97\n`)
      await chmod(join(wrongNode, npm), 0o755)
    }
    elsewhere = join(scratch, 'elsewhere')
    await mkdir(elsewhere)
    env = { HOME: scratch, PATH: [join(prefix, 'bin'), wrongNode, '/usr/bin', '/bin'].join(':') }
  }, 120_000)

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true })
  })

  it('runs on the clone\'s Node 22 through the links, whatever node is on PATH', async () => {
    const version = await exec('isnad', ['--version'], { cwd: elsewhere, env })
    expect(version.stdout).toBe(`${PACKAGE_VERSION}\n`)
    const home = join(scratch, 'home')
    await exec('isnad', ['--home', home, 'init'], { cwd: elsewhere, env })
    const status = await exec('isnad', ['--home', home, '--json', 'status'], { cwd: elsewhere, env })
    expect(JSON.parse(status.stdout)).toMatchObject({ home })
  }, 60_000)

  it('prints nothing but its output: no npm in between, no EBADENGINE warning, nothing on stderr', async () => {
    const version = await exec('isnad', ['--version'], { cwd: elsewhere, env })
    expect(version.stdout).toBe(`${PACKAGE_VERSION}\n`)
    expect(version.stderr).toBe('')
    const config = await exec('isnad', ['--home', join(scratch, 'quiet-home'), 'config', 'show'], { cwd: elsewhere, env })
    expect(config.stderr).toBe('')
  }, 60_000)

  it('prints an MCP client configuration that starts this clone\'s CLI by absolute paths, and it works', async () => {
    const home = join(scratch, 'mcp-home')
    await exec('isnad', ['--home', home, 'init'], { cwd: elsewhere, env })
    // A relative --home and --passphrase-file come out absolute: the client runs from its own directory.
    const printed = await exec('isnad', ['--home', 'mcp-home', '--passphrase-file', 'pass.txt', 'mcp', '--print-config'], { cwd: scratch, env })
    const config = JSON.parse(printed.stdout) as McpClientConfig
    const server = config.mcpServers.isnad
    if (server === undefined) throw new Error('no isnad server in the printed configuration')
    expect(isAbsolute(server.command)).toBe(true)
    expect(await realpath(server.command)).toBe(await realpath(join(WORKSPACE, 'node_modules/node/bin/node')))
    expect(server.args).toEqual([join(await realpath(REPO), 'bin/isnad.js'), '--home', home, '--passphrase-file', join(scratch, 'pass.txt'), 'mcp'])
    expect(printed.stderr).toBe('')

    // Without the passphrase file (the keys are not encrypted), started as a client starts it.
    const client = new Client({ name: 'isnad-readme', version: '1.0.0' })
    await client.connect(new StdioClientTransport({
      command: server.command, args: server.args.filter((a) => a !== '--passphrase-file' && a !== join(scratch, 'pass.txt')),
      cwd: elsewhere, env: { HOME: scratch, PATH: '/usr/bin:/bin' }, stderr: 'pipe'
    }))
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain('remember')
    } finally {
      await client.close()
    }
  }, 60_000)

  it('keeps its home in ~/.isnad, not the directory it runs in, and says so where a node sits here', async () => {
    const project = join(scratch, 'project')
    await mkdir(project)
    await exec('isnad', ['init'], { cwd: project, env })
    const status = await exec('isnad', ['--json', 'status'], { cwd: project, env })
    expect(JSON.parse(status.stdout)).toMatchObject({ home: join(scratch, '.isnad') })
    await expect(stat(join(scratch, '.isnad', '.memory'))).resolves.toBeDefined()
    await expect(stat(join(project, '.memory'))).rejects.toThrow()
    expect(status.stderr).toBe('')

    // A home made here by an older default: used with --home ., and named when not.
    await exec('isnad', ['--home', '.', 'init'], { cwd: project, env })
    const here = await exec('isnad', ['--json', 'status'], { cwd: project, env })
    expect(JSON.parse(here.stdout)).toMatchObject({ home: join(scratch, '.isnad') })
    expect(here.stderr).toContain(`the home is ${join(scratch, '.isnad')}; pass --home . (or set ISNAD_HOME) to use the one here`)
    const chosen = await exec('isnad', ['--home', '.', '--json', 'status'], { cwd: project, env })
    expect(JSON.parse(chosen.stdout)).toMatchObject({ home: project })
    expect(chosen.stderr).toBe('')
  }, 60_000)

  it('says when the printed home is not a node home yet', async () => {
    const printed = await exec('isnad', ['--home', join(scratch, 'nowhere'), 'mcp', '--print-config'], { cwd: elsewhere, env })
    expect(printed.stderr).toContain(`isnad --home ${join(scratch, 'nowhere')} init`)
  }, 60_000)
})
