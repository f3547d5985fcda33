import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnchorCheck } from '../../../src/anchor/index.js'
import type { MemoryView } from '../../../src/schema/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { runIsnad } from '../cli/run-cli.js'

/* `isnad anchor add` and `isnad anchor check` as a user runs them (the built CLI, no daemon). */

describe('isnad anchor (CLI)', () => {
  let home: string

  beforeAll(async () => {
    await ensureBuilt()
    home = await mkdtemp(join(tmpdir(), 'isnad-anchor-cli-'))
    expect((await runIsnad(['init'], { home })).code).toBe(0)
  }, 180_000)

  afterAll(async () => { await rm(home, { recursive: true, force: true }) })

  it('anchors a file by the CID kubo gives it, and re-checks it', async () => {
    const memory = (await runIsnad(['remember', '-q', '-t', 'fact', 'the file says hello'], { home })).stdout.trim()
    await writeFile(join(home, 'hello.txt'), 'hello\n')
    const added = await runIsnad(['--json', 'anchor', 'add', memory, '--file', join(home, 'hello.txt')], { home })
    expect(added.code, added.stderr).toBe(0)
    const { anchor, memory: view } = added.json<{ anchor: string, memory: MemoryView }>()
    // `echo hello | ipfs add --cid-version 1` (protocols/vectors/unixfs/kubo.json, hello-newline).
    expect(view.anchors).toEqual([expect.objectContaining({ id: anchor, reference: 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am', verification: expect.objectContaining({ state: 'verified' }) })])

    const checked = await runIsnad(['--json', 'anchor', 'check', memory], { home })
    expect(checked.json<{ checks: AnchorCheck[] }>().checks).toEqual([expect.objectContaining({ id: anchor, state: 'verified', previous: 'verified' })])
  })

  it('refuses ambiguous or incomplete sources with USAGE', async () => {
    const memory = (await runIsnad(['remember', '-q', 'x'], { home })).stdout.trim()
    const both = await runIsnad(['--json', 'anchor', 'add', memory, '--url', 'http://a/', '--cid', 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am'], { home })
    expect(both.errorCode()).toBe('USAGE')
    expect((await runIsnad(['--json', 'anchor', 'add', memory, '--blockchain', 'eip155:1:tx:0x1'], { home })).errorCode()).toBe('USAGE')
  })
})
