import { performance } from 'node:perf_hooks'
import { Level } from 'level'
import {
  CONTENT_TYPES, nobleVerifier, nodeCryptoVerifier, trustLevelOf, verifyRecord, type ContentType, type MemoryRecord
} from '../src/index.js'
import { idKey, LATIN1, prefixEnd } from '../src/record-index/level/binary-keys.js'
import { createLevelRecordStore, type MemoryQuery, type RecordStore, type StoredRecord, type TrustEntry } from '../src/record-index/index.js'
import {
  assertSameSignatures, createAgent, createTagSampler, createTempDir, memoryRecord, sampleTags, signFast, type BenchAgent
} from './fixtures.js'
import { createRandom, pick, shuffle } from './stats.js'

/*
 * Figure 4: query latency over a LevelDB store of `size` signed memories, populated through
 * putMany in batches of 1,000 with their trust. Baselines on the same LevelDB: one `get` through the
 * store, and a raw 50-entry range read with a bare `level` handle (the store is closed meanwhile:
 * LevelDB allows one handle per directory).
 */

const DAY_MS = 86_400_000
const PUT_BATCH = 1000
const MIN_TRUSTS = [0, 0.2, 0.3, 0.5, 0.6, 0.8, 0.9]
/** Where the store keeps one small value per memory (src/record-index/level/key-layout.ts): the raw read's range. */
const RAW_RANGE_PREFIX = '!m!'
const RAW_RANGE_ENTRIES = 50

export interface QuerySetup {
  location: string
  store: RecordStore
  ids: string[]
  tags: string[]
  authors: string[]
  populateMs: number
  remove: () => Promise<void>
}

/** Scores as a node would hold them: policy values 0.3 / 0.5 / 0.6 … with a spread of others. */
function sampleScore (random: () => number): number {
  const x = random()
  if (x < 0.5) return pick(random, [0.3, 0.3, 0.5, 0.5, 0.6, 0.35, 0.8, 0.15, 0.7, 0.9])
  return Math.round(random() * 10_000) / 10_000
}

export async function populate (size: number, now = Date.now()): Promise<QuerySetup> {
  const random = createRandom(5)
  const { tags, sample } = createTagSampler(200, random)
  const authors = Array.from({ length: 8 }, (_, n) => createAgent(5, n))
  const checker = authors[0] as BenchAgent
  assertSameSignatures(memoryRecord(random, { author: checker, serial: -1, createdMillis: now, tags: ['check'] }), checker)
  const dir = await createTempDir('query')
  const store = createLevelRecordStore({ location: dir.path })
  await store.open()
  const ids: string[] = []
  const start = performance.now()
  for (let at = 0; at < size; at += PUT_BATCH) {
    const batch: Array<StoredRecord<MemoryRecord>> = []
    const trust = new Map<string, TrustEntry>()
    for (let i = at; i < Math.min(size, at + PUT_BATCH); i++) {
      const author = pick(random, authors)
      // Over the past year; signed with OpenSSL from the author's seed (fixtures.ts signFast).
      const record = memoryRecord(random, { author, serial: i, createdMillis: now - Math.floor(random() * 365 * DAY_MS), tags: sampleTags(random, sample) })
      const stored = signFast(record, author)
      const score = sampleScore(random)
      batch.push(stored)
      trust.set(stored.id, { score, level: trustLevelOf(score), policy: 'isnad-v0.1', computed_at: new Date(now).toISOString() })
      ids.push(stored.id)
    }
    await store.putMany(batch, trust)
  }
  const populateMs = performance.now() - start
  // Every memory is a real signed record: a sample must pass the full pipeline with both verifiers.
  for (let i = 0; i < 20; i++) {
    const stored = await store.get(pick(random, ids))
    if (stored === null) throw new Error('a populated memory is missing')
    for (const verifier of [nodeCryptoVerifier, nobleVerifier]) verifyRecord(stored.signed, { verifier, now })
  }
  return { location: dir.path, store, ids, tags, authors: authors.map((a) => a.did), populateMs, remove: dir.remove }
}

export type QueryShape = 'tag + minTrust' | 'author' | 'type + time range' | 'tag, 2nd page' | 'get (baseline)' | 'raw 50-entry range (baseline)'

type Latencies = Map<QueryShape, number[]>

function add (latencies: Latencies, shape: QueryShape, ms: number): void {
  const list = latencies.get(shape)
  if (list === undefined) latencies.set(shape, [ms])
  else list.push(ms)
}

async function timed (run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

/** One query of each shape, at random, interleaved with the `get` baseline. */
async function storeRound (setup: QuerySetup, random: () => number, pairs: number, latencies: Latencies, record: boolean): Promise<void> {
  const { store } = setup
  const now = Date.now()
  for (let i = 0; i < pairs; i++) {
    const tagQuery: MemoryQuery = { tags: [pick(random, setup.tags)], minTrust: pick(random, MIN_TRUSTS), limit: 50 }
    const since = now - Math.floor(random() * 330 * DAY_MS) - 30 * DAY_MS
    const shapes: Array<[QueryShape, () => Promise<unknown>]> = [
      ['tag + minTrust', async () => await store.query(tagQuery)],
      ['get (baseline)', async () => await store.get(pick(random, setup.ids))],
      ['author', async () => await store.query({ author: pick(random, setup.authors), limit: 50 })],
      ['type + time range', async () => await store.query({
        type: pick<ContentType>(random, CONTENT_TYPES), since: new Date(since).toISOString(), until: new Date(since + 30 * DAY_MS).toISOString(), limit: 50
      })]
    ]
    for (const [shape, run] of shuffle(random, shapes)) {
      const ms = await timed(run)
      if (record) add(latencies, shape, ms)
    }
    // The second page of a popular tag: the cursor comes from a first page, not timed.
    const pageQuery: MemoryQuery = { tags: [pick(random, setup.tags.slice(0, 20))], minTrust: pick(random, [0, 0.3]), limit: 50 }
    const cursor = (await store.query(pageQuery)).next
    if (cursor !== undefined) {
      const ms = await timed(async () => await store.query({ ...pageQuery, cursor }))
      if (record) add(latencies, 'tag, 2nd page', ms)
    }
  }
}

/** Raw 50-entry range reads through a bare level handle on the same directory. */
async function rawRound (setup: QuerySetup, random: () => number, reads: number, latencies: Latencies, record: boolean): Promise<void> {
  const db = new Level<string, string>(setup.location, { keyEncoding: LATIN1, valueEncoding: 'utf8' })
  await db.open()
  try {
    for (let i = 0; i < reads; i++) {
      let got = 0
      const ms = await timed(async () => { got = (await db.values({ gte: RAW_RANGE_PREFIX + idKey(pick(random, setup.ids)), lt: prefixEnd(RAW_RANGE_PREFIX), limit: RAW_RANGE_ENTRIES }).all()).length })
      if (got === 0) throw new Error(`no entries under ${RAW_RANGE_PREFIX}: the store's key layout changed, update bench/query.ts`)
      if (record) add(latencies, 'raw 50-entry range (baseline)', ms)
    }
  } finally {
    await db.close()
  }
}

export interface QueryOptions {
  rounds: number
  /** Iterations of every shape per round. */
  pairs: number
}

/** Alternates store rounds and raw rounds; the first of each is a warm-up. */
export async function benchQueries (setup: QuerySetup, options: QueryOptions): Promise<Latencies> {
  const random = createRandom(6)
  const latencies: Latencies = new Map()
  for (let round = 0; round <= options.rounds; round++) {
    const record = round > 0
    await storeRound(setup, random, record ? options.pairs : 20, latencies, record)
    await setup.store.close()
    await rawRound(setup, random, record ? options.pairs : 20, latencies, record)
    await setup.store.open()
  }
  return latencies
}
