import { openEventLedger, writePackFile } from '../src/ledger/index.js'
import { initHome, LocalNode } from '../src/node/index.js'
import { nodePaths } from '../src/home/index.js'
import { batchEventsOf } from '../src/node/journal/record-events.js'
import type { StoredRecord } from '../src/record-index/index.js'
import { reindexHome } from '../src/node/reindex/reindex.js'
import { attestationRecord, createAgent, createTagSampler, createTempDir, memoryRecord, sampleTags, signFast } from './fixtures.js'
import type { Figure } from './report.js'
import { createRandom, median, pick } from './stats.js'

/*
 * The reindex figure: `isnad ledger reindex` over a ledger of 100k records (half
 * memories, half attestations), written as the node journals a sync page of 256 (one
 * `memory.packed` event per page, docs/ledger-packs.md; builds before packs wrote one event per
 * record), against the bare read of the same ledger measured in the same run (every line parsed,
 * schema- and hash-checked in lc order): what reindex adds is the packs' records, the index, trust
 * and the Merkle log.
 */

export interface ReindexBenchOptions {
  /** @default 100_000 */
  events?: number
  rounds: number
  progress?: (text: string) => void
}

const SECTION = '6. ledger: reindex (rebuild LevelDB index, trust and Merkle log from the ledgers)'
/** Target: reindex of 100k events under 10 s. */
const TARGET_MS = 10_000
/** Records per journaled batch: a sync page (net/sync SYNC_PAGE_SIZE). */
const BATCH = 256

export async function benchReindex (options: ReindexBenchOptions): Promise<Figure[]> {
  const total = options.events ?? 100_000
  const dir = await createTempDir('isnad-bench-reindex')
  try {
    await initHome(dir.path)
    const paths = nodePaths(dir.path)
    await writeLedger(paths.data, total, options.progress)
    const readMs: number[] = []
    const reindexMs: number[] = []
    for (let round = 0; round < options.rounds; round++) {
      readMs.push(await timeRead(paths.data))
      const started = performance.now()
      await reindexHome(paths, 'default', Date.now)
      reindexMs.push(performance.now() - started)
      options.progress?.(`reindex round ${round + 1}: ${Math.round(reindexMs.at(-1) ?? 0)} ms`)
    }
    await assertQueryable(dir.path)
    const value = median(reindexMs)
    const baseline = median(readMs)
    return [{
      section: SECTION,
      name: `reindex of ${total.toLocaleString('en')} records`,
      value,
      unit: 'ms',
      baseline: { name: 'read + hash-check every event', value: baseline, unit: 'ms' },
      ratio: value / baseline,
      target: { text: `under ${TARGET_MS / 1000} s`, met: value < TARGET_MS },
      detail: { reindexMs, readMs, eventsPerSecond: Math.round(total / (value / 1000)) }
    }]
  } finally {
    await dir.remove()
  }
}

/** Half memories, half attestations, written straight to the ledger as the node journals a sync page. */
async function writeLedger (dataDir: string, total: number, progress?: (text: string) => void): Promise<void> {
  const random = createRandom(7)
  const authors = Array.from({ length: 8 }, (_, i) => createAgent(30, i))
  const witnesses = Array.from({ length: 8 }, (_, i) => createAgent(31, i))
  const { sample } = createTagSampler(200, random)
  const ledger = await openEventLedger({ dataDir, scope: 'default' })
  try {
    const memories: string[] = []
    for (let written = 0; written < total;) {
      const batch: StoredRecord[] = []
      for (let i = 0; i < BATCH && written < total; i++, written++) {
        if (written % 2 === 0 || memories.length === 0) {
          const author = pick(random, authors)
          const record = memoryRecord(random, { author, serial: written, tags: sampleTags(random, sample), createdMillis: Date.parse('2026-01-01T00:00:00Z') + written * 1000 })
          const stored = signFast(record, author)
          memories.push(stored.id)
          batch.push(stored)
        } else {
          const witness = pick(random, witnesses)
          batch.push(signFast(attestationRecord(pick(random, memories), witness, 'confirm', Date.parse('2026-01-02T00:00:00Z') + written), witness))
        }
      }
      const { inputs, files } = batchEventsOf(batch, 'sync')
      for (const pack of files) await writePackFile(dataDir, 'default', pack)
      await ledger.append(inputs)
    }
    progress?.(`wrote ${total} records`)
  } finally {
    await ledger.close()
  }
}

async function timeRead (dataDir: string): Promise<number> {
  const ledger = await openEventLedger({ dataDir, scope: 'default' })
  try {
    const started = performance.now()
    for await (const _event of ledger.readEvents()) { /* every line is parsed and checked */ }
    return performance.now() - started
  } finally {
    await ledger.close()
  }
}

/** The rebuilt index answers: a query returns memories (the figure is of a working index). */
async function assertQueryable (home: string): Promise<void> {
  const node = await LocalNode.open({ home, mode: 'read' })
  try {
    if ((await node.query({ limit: 5 })).items.length === 0) throw new Error('reindex produced an empty index')
  } finally {
    await node.close()
  }
}
