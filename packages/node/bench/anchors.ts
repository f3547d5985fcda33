import { createCipheriv, createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createLevelBlockStore, createMemoryBlockStore, importUnixfs, UNIXFS_CHUNK_SIZE } from '../src/anchor/index.js'
import type { Figure } from './report.js'
import { interleave, median, type Sample } from './stats.js'

/*
 * The anchors figure: UnixFS import (kubo's `ipfs add --cid-version 1` DAG, anchors-v1 §2) of a
 * 100 MB file, in MB/s, against raw sha2-256 over the same bytes (node:crypto, one pass) measured
 * in the same rounds. Import hashes every byte once too, and adds chunking, dag-pb nodes and the
 * block writes; the target is ≥ 50% of the raw hash rate, for the import itself. Beside it, the
 * import into an in-memory blockstore and `anchor add --file`'s whole path (the file read from disk
 * into the LevelDB blockstore), so the cost of keeping the blocks is visible.
 */

export interface AnchorBenchOptions {
  /** @default 100 MB */
  bytes?: number
  /** @default 5 */
  rounds?: number
  progress?: (message: string) => void
}

const MB = 1_000_000
/** The target: import ≥ 50% of raw sha2-256 throughput. */
const TARGET = 0.5
const BASELINE = 'raw sha2-256 (node:crypto)'
/**
 * The subject the target applies to: the import itself (chunking, hashing, dag-pb nodes, the root
 * CID), as ipfs-unixfs-importer does it, its blocks handed to a sink that keeps nothing. The other
 * subjects add keeping the blocks (in memory; in LevelDB, which writes every byte at least twice, log
 * then table): they are reported beside it, without a target.
 */
const IMPORT = 'UnixFS import (DAG + hashing, blocks not kept)'

/** `bytes` of ChaCha20 keystream in chunks of the importer's size (incompressible, no repeated blocks). */
function content (bytes: number): Uint8Array[] {
  const cipher = createCipheriv('chacha20', createHash('sha256').update('isnad bench').digest(), Buffer.alloc(16))
  const zeros = Buffer.alloc(UNIXFS_CHUNK_SIZE)
  const chunks: Uint8Array[] = []
  for (let left = bytes; left > 0; left -= zeros.length) chunks.push(cipher.update(left >= zeros.length ? zeros : zeros.subarray(0, left)))
  return chunks
}

async function timed (bytes: number, run: () => Promise<unknown>): Promise<Sample> {
  const start = performance.now()
  await run()
  return { ops: bytes / MB, ms: performance.now() - start }
}

export async function benchAnchors (options: AnchorBenchOptions = {}): Promise<Figure[]> {
  const { bytes = 100 * MB, rounds = 5, progress = () => {} } = options
  const chunks = content(bytes)
  const dir = await mkdtemp(join(tmpdir(), 'isnad-bench-anchors-'))
  const file = join(dir, 'content.bin')
  await writeFile(file, chunks)
  try {
    progress(`9. UnixFS import of ${bytes / MB} MB against raw sha2-256, ${rounds} rounds`)
    const hash = async (): Promise<Sample> => await timed(bytes, async () => {
      const h = createHash('sha256')
      for (const chunk of chunks) h.update(chunk)
      return h.digest()
    })
    let store = 0
    const intoLevel = (source: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>) => async (): Promise<Sample> => {
      const blocks = createLevelBlockStore(join(dir, `blocks-${store++}`))
      await blocks.open()
      try {
        return await timed(bytes, async () => await importUnixfs(source(), blocks.importTarget))
      } finally {
        await blocks.close()
      }
    }
    const subjects = new Map<string, () => Promise<Sample>>([
      ['file → LevelDB blockstore', intoLevel(() => createReadStream(file, { highWaterMark: UNIXFS_CHUNK_SIZE }))],
      ['memory → memory blockstore', async () => await timed(bytes, async () => await importUnixfs(chunks, createMemoryBlockStore().importTarget))],
      [IMPORT, async () => await timed(bytes, async () => await importUnixfs(chunks, { put: async (cid) => cid }))]
    ])
    const result = await interleave(hash, subjects, rounds)
    const section = `9. anchors: UnixFS import of ${bytes / MB} MB (kubo --cid-version 1 DAG) vs raw sha2-256`
    return [...subjects.keys()].map((name) => {
      const slot = result.subjects.get(name)
      const ratio = median(slot?.ratios ?? [])
      const figure: Figure = {
        section,
        name,
        value: median(slot?.rates ?? []),
        unit: 'MB/s',
        baseline: { name: BASELINE, value: median(result.baseline), unit: 'MB/s' },
        ratio,
        detail: { rates: (slot?.rates ?? []).map((r) => Math.round(r)), ratios: (slot?.ratios ?? []).map((r) => Number(r.toFixed(3))), bytes }
      }
      if (name === IMPORT) figure.target = { text: `≥ ${TARGET.toFixed(2)}× ${BASELINE}`, met: ratio >= TARGET }
      return figure
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
