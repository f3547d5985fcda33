import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEventLedger, type EventInput } from '../src/ledger/index.js'
import { verifyRecordBytes } from '../src/record/index.js'
import { nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import { batchEventsOf, recordEventOf, recordsOfEvent } from '../src/node/journal/record-events.js'
import type { StoredRecord } from '../src/record-index/index.js'
import { createAttestationWorkload } from './ingest.js'

/*
 * The journal step alone (docs/ledger-packs.md): figure 8c's 3,000 records in sync
 * pages of 256 made durable in a fresh event ledger, as the layout before packs wrote them (one
 * `diasync-v1-event` per record, embedding it as JSON) and as packs (one `memory.packed` event per
 * page, the CAR inside it), rounds alternating in one process; then each ledger read back into its
 * records (what recovery and reindex do per event). Bytes are the ledger's files. Not timed in tests:
 *
 *   npm run build && node dist/bench/journal-pages.js [--rounds=5]
 */

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const ROUNDS = Number(arg('rounds', '5'))
/** @default 256 — records per page, as a sync page (sync-v1) hands them to the node. */
const PAGE = 256

type Layout = 'per-record' | 'packs'

async function bytesUnder (dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

async function journal (layout: Layout, pages: StoredRecord[][]): Promise<{ writeMs: number, readMs: number, bytes: number, read: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), `isnad-bench-journal-${layout}-`))
  try {
    const ledger = await openEventLedger({ dataDir, scope: 'default' })
    const started = performance.now()
    for (const page of pages) {
      const inputs: EventInput[] = layout === 'packs' ? batchEventsOf(page, 'sync').inputs : page.map((r) => recordEventOf(r, 'sync'))
      await ledger.append(inputs)
    }
    const writeMs = performance.now() - started
    const reading = performance.now()
    let read = 0
    for await (const event of ledger.readEvents()) read += (await recordsOfEvent(event, dataDir)).length
    const readMs = performance.now() - reading
    await ledger.close()
    return { writeMs, readMs, bytes: await bytesUnder(join(dataDir, 'streams')), read }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

const workload = createAttestationWorkload({ memories: 1000, witnessesPerMemory: 2 })
const all = [...workload.memories, ...workload.attestations]
const received = all.reduce((sum, bytes) => sum + bytes.length, 0)
// As the pipeline hands them to the journal step: verified, with their canonical bytes.
const records: StoredRecord[] = all.map((bytes) => {
  const { id, signed } = verifyRecordBytes(bytes, { verifier: nodeCryptoVerifier, now: Date.now() })
  return { id, signed, bytes }
})
const pages: StoredRecord[][] = []
for (let at = 0; at < records.length; at += PAGE) pages.push(records.slice(at, at + PAGE))

const results: Record<Layout, Array<Awaited<ReturnType<typeof journal>>>> = { 'per-record': [], packs: [] }
await journal('packs', pages) // warm-up, discarded
for (let round = 0; round < ROUNDS; round++) {
  for (const layout of (round % 2 === 0 ? ['per-record', 'packs'] : ['packs', 'per-record']) as Layout[]) results[layout].push(await journal(layout, pages))
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] as number }
const summary = Object.fromEntries((Object.keys(results) as Layout[]).map((layout) => {
  const runs = results[layout]
  return [layout, {
    records_per_s_write: Math.round(records.length / (median(runs.map((r) => r.writeMs)) / 1000)),
    records_per_s_read: Math.round(records.length / (median(runs.map((r) => r.readMs)) / 1000)),
    ledger_bytes: runs[0]?.bytes,
    per_received_byte: Math.round(1000 * (runs[0]?.bytes ?? 0) / received) / 1000,
    read_back: runs[0]?.read
  }]
}))
const ratios = (key: 'writeMs' | 'readMs'): number[] => results['per-record'].map((old, i) => Math.round(100 * old[key] / (results.packs[i]?.[key] ?? 1)) / 100)
process.stdout.write(`${JSON.stringify({ records: records.length, received, page: PAGE, rounds: ROUNDS, ...summary, packs_speedup_write_per_round: ratios('writeMs'), packs_speedup_read_per_round: ratios('readMs') }, null, 2)}\n`)
