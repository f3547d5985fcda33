import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockKeyOf, blockLinks, parseCid } from '../../../src/anchor/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { initHome, LocalNode } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { runLedgerCli } from './ledger-cli.js'

/**
 * `isnad ledger verify | repair` with their default blockstore hooks: a flipped byte
 * in a block of a file anchor is reported (`block_corrupt`, the scan's size in the report), repair
 * sets the block aside and checks the anchor again (no peers here: `unreachable`), and verify is
 * healthy afterwards.
 */
describe('ledger verify and repair read the blockstore', () => {
  let home: string
  let anchor: string

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-cli-blocks-'))
    await initHome(home)
    const keystore = createKeystore({ directory: join(home, 'keys') })
    const author = await keystore.load(await keystore.defaultDid() as string)
    const file = join(home, 'evidence.bin')
    await writeFile(file, Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) % 253))
    const node = await LocalNode.open({ home })
    try {
      const memory = await node.remember({ type: 'fact', summary: 'with evidence' }, author)
      anchor = (await node.addAnchor({ source: 'file', path: file, memory: memory.id }, author)).anchor
    } finally {
      await node.close()
    }
  }, 60_000)
  afterAll(async () => { await rm(home, { recursive: true, force: true }) })

  const run = async (...args: string[]): ReturnType<typeof runLedgerCli> => await runLedgerCli(home, ...args)

  it('finds a damaged block, sets it aside, and the anchor is checked again', async () => {
    const clean = await run('ledger', 'verify')
    expect(clean.code).toBe(0)
    expect(clean.json()).toMatchObject({ status: 'healthy', blocks: { blocks: 3, checked: 3, sampled: false, anchors: 1 } })

    const reader = await LocalNode.open({ home, mode: 'read' })
    const root = parseCid(((await reader.store.get(anchor))?.signed.record as { reference: string }).reference)
    await reader.close()
    const db = new Level<string, Uint8Array>(join(nodePaths(home).data, 'evidence', 'blocks'), { createIfMissing: false, valueEncoding: 'view' })
    await db.open()
    const leaf = blockLinks(root, await db.get(blockKeyOf(root)) as Uint8Array)[0]
    const key = blockKeyOf(leaf as NonNullable<typeof leaf>)
    const bytes = Uint8Array.from(await db.get(key) as Uint8Array)
    bytes[7] = (bytes[7] as number) ^ 0x80
    await db.put(key, bytes)
    await db.close()

    const damaged = await run('ledger', 'verify')
    expect(damaged.code).toBe(1)
    const found = damaged.json<{ status: string, findings: Array<{ kind: string, file: string, refs?: string[] }> }>()
    expect(found.status).toBe('degraded')
    expect(found.findings).toEqual([expect.objectContaining({ kind: 'block_corrupt', file: `evidence/blocks/${String(leaf)}`, refs: [anchor] })])

    const repaired = await run('ledger', 'repair')
    expect(repaired.code).toBe(0)
    const outcome = repaired.json<{ executions: Array<{ status: string, detail: string }>, after: { status: string } }>()
    expect(outcome.after.status).toBe('healthy')
    expect(outcome.executions.map((e) => e.status)).toEqual(['done'])
    expect(outcome.executions[0]?.detail).toMatch(new RegExp(`set aside 1 damaged block .*archive/quarantine/blocks/${String(leaf)}\\.bin.*${anchor} unreachable`))
  }, 120_000)
})
