import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { decodeSignedRecord } from '../src/record/index.js'
import { initHome, LocalNode } from '../src/node/index.js'
import { createLevelRecordStore, type RecordStore } from '../src/record-index/index.js'
import { createAttestationWorkload } from './ingest.js'
import { createRandom, median, percentile } from './stats.js'

/*
 * Records stored once: what a read costs now that the index holds where a record is in
 * the ledger's packs and each read preads the block (and base64-decodes it, for a pack inside its
 * event) and hashes it against the id. Baseline in the same run: the same records in a LevelDB
 * store that holds their bytes (a store opened without its data directory keeps every record as
 * bytes: the layout before). Both stores get figure 8c's 3,000 records; rounds alternate.
 *
 *   npm run build && node dist/bench/record-reads.js [--rounds=5]
 *
 * - `get`, one at a time, 2,000 random ids: p50 / p99 µs per record
 * - `getBytesMany` of a 256-id sync page (random ids, as sync serving asks): records/s
 */

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const ROUNDS = Number(arg('rounds', '5'))
const GETS = 2000
const PAGE = 256
const PAGES = 40

const workload = createAttestationWorkload({ memories: 1000, witnessesPerMemory: 2 })
const records = [...workload.memories, ...workload.attestations]
const home = await mkdtemp(join(tmpdir(), 'isnad-bench-reads-'))
const heldDir = await mkdtemp(join(tmpdir(), 'isnad-bench-reads-held-'))
try {
  await initHome(home)
  const writer = await LocalNode.open({ home })
  const recordIds: string[] = []
  try {
    for (let at = 0; at < records.length; at += PAGE) {
      const result = await writer.ingest(records.slice(at, at + PAGE), 'sync')
      recordIds.push(...result.stored)
    }
  } finally {
    await writer.close()
  }
  // The same records, held as bytes: a store with no ledger beside it.
  const held = createLevelRecordStore({ location: heldDir })
  await held.open()
  const reader = await LocalNode.open({ home, mode: 'read' })
  const located = reader.store
  const copies = await located.getBytesMany(recordIds)
  await held.putMany(recordIds.map((id, i) => ({ id, signed: decodeSignedRecord(copies[i] as Uint8Array), bytes: copies[i] as Uint8Array })))
  const random = createRandom(20)
  const pickIds = (n: number): string[] => Array.from({ length: n }, () => recordIds[Math.floor(random() * recordIds.length)] as string)
  const gets = async (store: RecordStore): Promise<number[]> => {
    const times: number[] = []
    for (const id of pickIds(GETS)) {
      const start = performance.now()
      if (await store.get(id) === null) throw new Error(`missing ${id}`)
      times.push((performance.now() - start) * 1000)
    }
    return times
  }
  const pages = async (store: RecordStore): Promise<number> => {
    const start = performance.now()
    for (let p = 0; p < PAGES; p++) {
      const bytes = await store.getBytesMany(pickIds(PAGE))
      if (bytes.some((b) => b === undefined)) throw new Error('a page lost a record')
    }
    return PAGES * PAGE / ((performance.now() - start) / 1000)
  }
  const rows: Record<string, { get50: number[], get99: number[], pageRate: number[] }> = { located: { get50: [], get99: [], pageRate: [] }, held: { get50: [], get99: [], pageRate: [] } }
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, store] of [['held', held], ['located', located]] as const) {
      const times = await gets(store)
      const rate = await pages(store)
      if (round === 0) continue // warm-up
      rows[name]?.get50.push(percentile(times, 50))
      rows[name]?.get99.push(percentile(times, 99))
      rows[name]?.pageRate.push(rate)
    }
  }
  await reader.close()
  await held.close()
  const summary = Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, {
    getP50Micros: Math.round(median(r.get50)), getP99Micros: Math.round(median(r.get99)), pageRecordsPerSecond: Math.round(median(r.pageRate))
  }]))
  const l = summary.located as { getP50Micros: number, getP99Micros: number, pageRecordsPerSecond: number }
  const h = summary.held as typeof l
  process.stdout.write(`${JSON.stringify({ records: records.length, rounds: ROUNDS, ...summary, ratio: { getP50: +(l.getP50Micros / h.getP50Micros).toFixed(2), getP99: +(l.getP99Micros / h.getP99Micros).toFixed(2), pageRate: +(l.pageRecordsPerSecond / h.pageRecordsPerSecond).toFixed(2) } }, null, 2)}\n`)
} finally {
  await rm(home, { recursive: true, force: true })
  await rm(heldDir, { recursive: true, force: true })
}
