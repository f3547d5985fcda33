import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { Level } from 'level'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { initHome, LocalNode } from '../src/node/index.js'
import { createAttestationWorkload } from './ingest.js'
import { SYNC_PAGE_SIZE } from '../src/net/index.js'

/*
 * Bytes on disk per byte of received records (target: ≤ 3×, from about 8× before records were stored once): a fresh
 * node takes the records of figure 8c's sync (1,000 memories + 2,000 attestations, canonical bytes) in
 * sync pages of SYNC_PAGE_SIZE through its ingest pipeline (source `sync`, as the NetHost hands them on), is
 * closed, and every file under its `.memory/` is counted by top-level folder. Not a timed figure:
 *
 *   npm run build && node dist/bench/disk-usage.js [--memories=1000] [--witnesses=2] [--page=1024]
 *
 * Two diagnostics follow the figure, neither part of it: `sublevels`, the live keys of each LevelDB
 * of index/ by sublevel (count, key bytes, value bytes: what the index holds, whatever LevelDB's files
 * look like), and `atRest`, the index folders once LevelDB has reopened them — its recovery turns the
 * write-ahead log left at close (every put as written, uncompressed, overwritten values included)
 * into a table (keys prefix-compressed, blocks Snappy-compressed), which a node does at its next open.
 */

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const MEMORIES = Number(arg('memories', '1000'))
const WITNESSES = Number(arg('witnesses', '2'))
/** @default SYNC_PAGE_SIZE — records per page, as a sync page (sync-v1) hands them to the node. */
const PAGE = Number(arg('page', String(SYNC_PAGE_SIZE)))

async function sizesByFolder (root: string): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {}
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) {
        const parts = relative(root, path).split('/')
        const top = parts[0] ?? ''
        const size = (await stat(path)).size
        sizes[top] = (sizes[top] ?? 0) + size
        // The two LevelDBs of index/ apart: the record store (records stored once) and the journal's.
        if (top === 'index' && parts.length > 2) sizes[`index/${parts[1] ?? ''}`] = (sizes[`index/${parts[1] ?? ''}`] ?? 0) + size
      }
    }
  }
  await walk(root)
  return sizes
}

const workload = createAttestationWorkload({ memories: MEMORIES, witnessesPerMemory: WITNESSES })
const records = [...workload.memories, ...workload.attestations]
const received = records.reduce((sum, bytes) => sum + bytes.length, 0)
const home = await mkdtemp(join(tmpdir(), 'isnad-bench-disk-'))
try {
  await initHome(home)
  const node = await LocalNode.open({ home })
  try {
    for (let at = 0; at < records.length; at += PAGE) await node.ingest(records.slice(at, at + PAGE), 'sync')
  } finally {
    await node.close()
  }
  const data = node.paths.data
  // Files an empty home already has (policy, spec, schemas) are counted too: they are a few kB.
  const folders = await sizesByFolder(data)
  const total = Object.entries(folders).reduce((sum, [name, n]) => name.includes('/') ? sum : sum + n, 0)
  const sublevels: Record<string, { keys: number, keyBytes: number, valueBytes: number }> = {}
  const atRest: Record<string, number> = {}
  for (const name of ['records', 'journal']) {
    const location = join(data, 'index', name)
    const db = new Level<Uint8Array, Uint8Array>(location, { keyEncoding: 'view', valueEncoding: 'view' })
    await db.open() // LevelDB's recovery: the log becomes a table
    for await (const [key, value] of db.iterator()) {
      // abstract-level's sublevel prefix: `!name!`
      const end = key[0] === 0x21 ? key.indexOf(0x21, 1) : -1
      const label = `${name}/${end > 0 ? Buffer.from(key.subarray(1, end)).toString() : '(root)'}`
      const entry = sublevels[label] ?? (sublevels[label] = { keys: 0, keyBytes: 0, valueBytes: 0 })
      entry.keys++
      entry.keyBytes += key.length
      entry.valueBytes += value.length
    }
    await db.close()
    atRest[`index/${name}`] = Object.values(await sizesByFolder(location)).reduce((sum, n) => sum + n, 0)
  }
  process.stdout.write(`${JSON.stringify({ records: records.length, received, onDisk: total, ratio: Math.round(1000 * total / received) / 1000, folders, sublevels, atRest }, null, 2)}\n`)
} finally {
  await rm(home, { recursive: true, force: true })
}
