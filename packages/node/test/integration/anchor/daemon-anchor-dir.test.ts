import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../../../src/cli/config/index.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { createNode } from '../../../src/library.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { runIsnad } from '../cli/run-cli.js'

/*
 * `isnad anchor add --file` while a daemon runs: the daemon reads files for its API clients (the
 * CLI included) only under its `anchor-dir` setting (anchors-v1 §2.1). The refusal must name the way
 * to allow a directory, the config key or `isnad start`'s flag, never a flag `isnad anchor` lacks;
 * and doing what it says must make the same command work.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

describe('a file anchor refused by a running daemon', () => {
  let home: string
  let notes: string
  let memory: string
  let daemon: Daemon | undefined

  beforeAll(async () => {
    ensureBuilt()
    home = await mkdtemp(join(tmpdir(), 'isnad-anchor-dir-'))
    notes = join(home, 'notes')
    await mkdir(notes)
    await writeFile(join(notes, 'runbook.txt'), 'staging: connect the VPN first\n')
    const node = await createNode({ home })
    memory = (await node.remember({ summary: 'the staging deploy needs a VPN' })).id
    await node.close()
    daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap: [], heartbeatMs: 60_000 })
  }, 120_000)

  afterAll(async () => {
    await daemon?.stop()
    await rm(home, { recursive: true, force: true })
  })

  it('names the config key and `isnad start`\'s flag, and following it works', async () => {
    const refused = await runIsnad(['anchor', 'add', memory, '--file', join(notes, 'runbook.txt')], { home })
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/PATH_FORBIDDEN|file anchors may not read/)
    expect(refused.stderr).toContain('`isnad config set anchor-dir <dir>` and a restart of the daemon')
    expect(refused.stderr).toContain('`isnad start --anchor-dir <dir>`')
    // Every `--anchor-dir` it names is `isnad start`'s.
    expect(refused.stderr.match(/--anchor-dir/g)?.length).toBe(refused.stderr.match(/isnad start --anchor-dir/g)?.length)

    // What it says: set the key, restart the daemon (which takes its settings when it starts, as `isnad start` does).
    expect((await runIsnad(['config', 'set', 'anchor-dir', notes], { home })).code).toBe(0)
    await daemon?.stop()
    const fileDirs = (await readConfig(home))['anchor-dir'] as string[]
    daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap: [], heartbeatMs: 60_000, anchors: { fileDirs } })
    const added = await runIsnad(['anchor', 'add', memory, '--file', join(notes, 'runbook.txt'), '--json'], { home })
    expect(added.code, added.stderr).toBe(0)
    expect(added.json<{ anchor: string }>().anchor).toMatch(/^bafyrei/)

    // Outside the allowed directory: the same way out.
    await writeFile(join(home, 'elsewhere.txt'), 'not under notes/\n')
    const outside = await runIsnad(['anchor', 'add', memory, '--file', join(home, 'elsewhere.txt')], { home })
    expect(outside.code).not.toBe(0)
    expect(outside.stderr).toMatch(/outside the directories this node reads for API and MCP clients; allow its directory with `isnad config set anchor-dir <dir>`/)
  }, 120_000)
})
