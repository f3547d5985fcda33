import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openEventLedger, type EventInput, type EventLedger, type IdempotencyIndex } from '../src/ledger/index.js'
import type { Figure } from './report.js'
import { interleave, median, timeBoxed, type Measure, type RoundResult, type Sample } from './stats.js'

/*
 * The ledger figure: durable events appended per second with group commit, against two
 * baselines measured in the same run on the same disk: the raw cost of one durable line
 * (`fs.writeSync` + `fs.fdatasyncSync` per line, what a ledger without group commit could at best
 * do) and raw unsynced appends (the ceiling of the disk path without durability). Then the read side:
 * every line schema- and hash-checked in lc order, as verify and reindex read it.
 */

export interface LedgerBenchOptions {
  rounds: number
  budgetMs: number
  /** Events written and read back for the read figure. @default 20_000 */
  readEvents?: number
}

const SECTION = '5. ledger: durable appends (.memory/ JSONL, fdatasync, group commit)'
const RAW_SYNC = 'raw write+fdatasync per line'
/** Targets: at least 20,000 durable events/s appended with group commit. */
const APPEND_TARGET = 20_000

let serial = 0

function eventInput (): EventInput {
  const n = serial++
  return {
    type: n % 5 === 0 ? 'memory.published' : 'memory.captured',
    actor: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    owner: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    payload: { cid: 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', summary: `bench event ${n} `.padEnd(120, '.'), tags: ['bench', `t${n % 50}`] },
    idempotency_key: `bench:${n}`
  }
}

/**
 * An index that keeps key → event_id, as the node's LevelDB index does (a duplicate is answered with
 * its id); it does not hold every event in memory, which would make the benchmark measure the heap.
 */
function createIdIndex (): IdempotencyIndex {
  const ids = new Map<string, string>()
  return {
    lookup: async (keys) => {
      const found = new Map<string, string>()
      for (const key of keys) {
        const id = ids.get(key)
        if (id !== undefined) found.set(key, id)
      }
      return found
    },
    record: (events) => { for (const e of events) ids.set(e.idempotency_key, e.event_id) }
  }
}

/** A line as long as a stored event, for the raw baselines. */
const SAMPLE_LINE = Buffer.from(JSON.stringify({ ...eventInput(), hash: `sha256:${'0'.repeat(64)}`, pad: 'x'.repeat(330) }) + '\n')

function rawMeasure (path: string, sync: boolean, budgetMs: number): Measure {
  return (): Sample => {
    const fd = openSync(path, 'a')
    try {
      return timeBoxed(() => {
        writeSync(fd, SAMPLE_LINE)
        if (sync) fdatasyncSync(fd)
      }, budgetMs)
    } finally {
      closeSync(fd)
    }
  }
}

/** `callers` concurrent loops, each appending `perCall` events and awaiting durability, for `budgetMs`. */
function appendMeasure (ledger: EventLedger, callers: number, perCall: number, budgetMs: number, syncs: number[]): Measure {
  return async (): Promise<Sample> => {
    const before = ledger.stats().syncs
    const start = performance.now()
    let events = 0
    const caller = async (): Promise<void> => {
      while (performance.now() - start < budgetMs) {
        const results = await ledger.append(Array.from({ length: perCall }, eventInput))
        events += results.length
      }
    }
    await Promise.all(Array.from({ length: callers }, caller))
    const ms = performance.now() - start
    syncs.push(ledger.stats().syncs - before)
    return { ops: events, ms }
  }
}

/**
 * Group commit turns concurrency into batch size: a sync carries what arrived during the previous
 * one. One caller cannot gain; the target is judged on 256 events in flight, as 16 callers of 16
 * events (the node appends an ingest batch's events in one call), with 256 single-event callers
 * beside it to show the per-call cost.
 */
const SUBJECTS = [
  { name: 'append, 1 caller × 1 event (nothing to batch)', callers: 1, perCall: 1 },
  { name: 'append, 64 concurrent callers × 1 event', callers: 64, perCall: 1 },
  { name: 'append, 256 concurrent callers × 1 event', callers: 256, perCall: 1 },
  { name: 'append, 16 concurrent callers × 16 events', callers: 16, perCall: 16, target: true }
] as const

export async function benchLedger (options: LedgerBenchOptions): Promise<Figure[]> {
  const root = await mkdtemp(join(tmpdir(), 'isnad-bench-ledger-'))
  const dataDir = join(root, '.memory')
  const ledger = await openEventLedger({ dataDir, scope: 'bench', idempotency: createIdIndex() })
  try {
    const syncs = new Map<string, number[]>(SUBJECTS.map((s) => [s.name, []]))
    const subjects = new Map<string, Measure>(SUBJECTS.map((s) => [s.name, appendMeasure(ledger, s.callers, s.perCall, options.budgetMs, syncs.get(s.name) ?? [])]))
    subjects.set('raw unsynced appends', rawMeasure(join(root, 'raw-unsynced.jsonl'), false, options.budgetMs))
    const result = await interleave(rawMeasure(join(root, 'raw-synced.jsonl'), true, options.budgetMs), subjects, options.rounds)
    const figures = SUBJECTS.map((s) => appendFigure(result, s.name, syncs.get(s.name) ?? [], 'target' in s))
    figures.push(appendFigure(result, 'raw unsynced appends', [], false))
    figures.push(await readFigure(ledger, dataDir, options))
    return figures
  } finally {
    await ledger.close()
    await rm(root, { recursive: true, force: true })
  }
}

function appendFigure (result: RoundResult, name: string, syncs: number[], target: boolean): Figure {
  const slot = result.subjects.get(name) ?? { rates: [], ratios: [] }
  const value = median(slot.rates)
  const figure: Figure = {
    section: SECTION,
    name,
    value,
    unit: name.startsWith('raw') ? 'lines/s' : 'durable events/s',
    baseline: { name: RAW_SYNC, value: median(result.baseline), unit: 'lines/s' },
    ratio: median(slot.ratios),
    detail: { rates: slot.rates.map(Math.round), ratios: slot.ratios.map((r) => Number(r.toFixed(2))) }
  }
  if (syncs.length > 0) figure.detail = { ...figure.detail, syncsPerRound: syncs.slice(-slot.rates.length) }
  if (target) figure.target = { text: `≥ ${APPEND_TARGET.toLocaleString('en-US')} durable events/s`, met: value >= APPEND_TARGET }
  return figure
}

/** Reads `readEvents` events back (schema + hash of every line, merged in lc order) against raw JSON.parse of the same lines. */
async function readFigure (ledger: EventLedger, dataDir: string, options: LedgerBenchOptions): Promise<Figure> {
  const want = options.readEvents ?? 20_000
  while (ledger.lastLc < want) await ledger.append(Array.from({ length: 256 }, eventInput))
  const rates: number[] = []
  const baselines: number[] = []
  for (let round = 0; round < options.rounds; round++) {
    let start = performance.now()
    let count = 0
    for await (const event of ledger.readEvents()) count += event.lc > 0 ? 1 : 0
    rates.push(count / ((performance.now() - start) / 1000))
    start = performance.now()
    let raw = 0
    for (const sub of ['streams', 'bus']) {
      const files = await readdir(join(dataDir, sub), { recursive: true, withFileTypes: true })
      for (const f of files.filter((e) => e.isFile())) {
        for (const line of (await readFile(join(f.parentPath, f.name), 'utf8')).split('\n')) if (line !== '') raw += JSON.parse(line) === null ? 0 : 1
      }
    }
    baselines.push(raw / ((performance.now() - start) / 1000))
  }
  return {
    section: SECTION,
    name: `readEvents, ${ledger.lastLc.toLocaleString('en-US')} events (schema + hash per line, lc merge)`,
    value: median(rates),
    unit: 'events/s',
    baseline: { name: 'readFile + JSON.parse per line', value: median(baselines), unit: 'lines/s' },
    ratio: median(rates.map((r, i) => r / (baselines[i] ?? Number.NaN))),
    detail: { rates: rates.map(Math.round), events: ledger.lastLc }
  }
}
