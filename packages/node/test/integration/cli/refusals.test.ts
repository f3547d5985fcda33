import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../src/cli/index.js'
import { createKeystore } from '../../../src/keystore/index.js'
import { initHome, LocalNode } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'

/**
 * A refused command leaves the data directory as it was. Every file of `.memory/` is
 * hashed before and after. LevelDB rewrites its own LOG (and may fold its write-ahead log into a
 * table) whenever it is opened, even read-only, without changing a key: the LevelDB directories are
 * compared whole only where the refusal comes before any store is opened (import); elsewhere every
 * other file (every ledger, view, coordination and governance line) must be byte-identical.
 */

const LEVELDB_DIRS = ['index/', 'evidence/blocks/']

async function treeHashes (dataDir: string, withLevelDb: boolean): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const rel = relative(dataDir, join(entry.parentPath, entry.name)).split(sep).join('/')
    if (!withLevelDb && LEVELDB_DIRS.some((d) => rel.startsWith(d))) continue
    out[rel] = createHash('sha256').update(await readFile(join(dataDir, rel))).digest('hex')
  }
  return out
}

describe('a refused command writes nothing', () => {
  let home: string
  let memory: string
  let bundleFile: string
  const cli = async (...args: string[]): Promise<number> => await runCli(['node', 'isnad', '--home', home, '--json', ...args])

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-refusals-'))
    await initHome(home)
    const keystore = createKeystore({ directory: join(home, 'keys') })
    const author = await keystore.load(await keystore.defaultDid() as string)
    const node = await LocalNode.open({ home })
    try {
      memory = (await node.remember({ type: 'fact', summary: 'the sky is blue', tags: ['t'] }, author)).id
    } finally {
      await node.close()
    }
    bundleFile = join(home, 'bundle.json')
    expect(await cli('export', memory, '-o', bundleFile)).toBe(0)
  }, 60_000)
  afterAll(async () => { await rm(home, { recursive: true, force: true }) })

  it('import of a tampered bundle: refused before the node opens, every file of .memory/ identical, LevelDB included', async () => {
    const bundle = JSON.parse(await readFile(bundleFile, 'utf8')) as { records: Array<{ record: { content: { summary: string } } }> }
    const first = bundle.records[0]
    if (first === undefined) throw new Error('empty bundle')
    first.record.content.summary = 'the sky is green'
    const tampered = join(home, 'tampered.json')
    await writeFile(tampered, JSON.stringify(bundle))
    const before = await treeHashes(nodePaths(home).data, true)
    expect(await cli('import', tampered)).not.toBe(0)
    expect(await treeHashes(nodePaths(home).data, true)).toEqual(before)
  }, 60_000)

  it('attest of a memory that is not stored, and anchors of a missing memory or a missing file: refused, every ledger byte identical', async () => {
    const missing = 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const cases: string[][] = [
      ['attest', missing, 'confirm'],
      ['anchor', 'add', missing, '--blockchain', 'eip155:1:0xabc', '--hash', `sha2-256:${'ab'.repeat(32)}`],
      ['anchor', 'add', memory, '--file', join(home, 'no-such-file.txt')]
    ]
    for (const args of cases) {
      const before = await treeHashes(nodePaths(home).data, false)
      expect(await cli(...args), args.join(' ')).not.toBe(0)
      expect(await treeHashes(nodePaths(home).data, false), args.join(' ')).toEqual(before)
    }
  }, 60_000)
})
