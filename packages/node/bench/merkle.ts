import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sha256 } from '@noble/hashes/sha2.js'
import { Level } from 'level'
import {
  MerkleLog, createLevelNodeStore, hashLeaf, verifyConsistency, verifyInclusion, type ConsistencyProof, type InclusionProof
} from '../src/merkle/index.js'
import type { Figure } from './report.js'
import { createRandom, interleave, median, timeBoxed, type Measure, type Sample } from './stats.js'

/*
 * The transparency log: inclusion proofs generated and verified per second over a
 * log of 100k leaves on LevelDB (transparency-v1 §3), and consistency proofs for comparison. The
 * baseline, measured in the same rounds, is raw SHA-256 over 64-byte inputs with the hash the log
 * uses (@noble/hashes): a proof costs ~log2 n of them to verify, so verify/s × 17 ≈ hashes/s says
 * the verifier adds nothing around them. Generation is bound by LevelDB reads (one getMany of
 * ≤ 2·log2 n keys per proof), measured one proof at a time and with PARALLEL proofs in flight.
 */

export interface MerkleBenchOptions {
  /** @default 100000 */
  leaves?: number
  /** @default 3 */
  rounds?: number
  /** @default 300 — milliseconds per measurement. */
  budgetMs?: number
  /** @default 1000 — leaves per append batch while the log is built. */
  appendBatch?: number
  section?: string
  progress?: (message: string) => void
}

const PARALLEL = 32
const BASELINE = 'raw SHA-256 (64 B, noble)'

/** Leaf data shaped like record CIDs (transparency-v1 R1): `01 71 12 20` ‖ a 32-byte digest. */
function leafData (i: number): Uint8Array {
  const out = new Uint8Array(36)
  out.set([0x01, 0x71, 0x12, 0x20])
  out.set(sha256(Uint8Array.of(i & 0xff, (i >>> 8) & 0xff, (i >>> 16) & 0xff, i >>> 24)), 4)
  return out
}

/** Calls `op(i)` until `budgetMs` have passed, `parallel` calls in flight at a time. */
async function timeBoxedAsync (op: (i: number) => Promise<unknown>, budgetMs: number, parallel = 1): Promise<Sample> {
  let ops = 0
  const start = performance.now()
  while (performance.now() - start < budgetMs) {
    await Promise.all(Array.from({ length: parallel }, async () => await op(ops++)))
  }
  return { ops, ms: performance.now() - start }
}

export async function benchMerkle (options: MerkleBenchOptions = {}): Promise<Figure[]> {
  const { leaves = 100_000, rounds = 3, budgetMs = 300, appendBatch = 1000, progress = () => {} } = options
  const section = options.section ?? `transparency log (RFC 6962 on LevelDB, ${leaves.toLocaleString('en-US')} leaves)`
  const dir = await mkdtemp(join(tmpdir(), 'isnad-bench-merkle-'))
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  try {
    await db.open()
    const log = await MerkleLog.open({ store: createLevelNodeStore(db.sublevel<string, Uint8Array>('merkle', { valueEncoding: 'view' })) })
    progress(`building a ${leaves.toLocaleString('en-US')}-leaf log in batches of ${appendBatch}`)
    const appendStart = performance.now()
    for (let at = 0; at < leaves; at += appendBatch) {
      await log.append(Array.from({ length: Math.min(appendBatch, leaves - at) }, (_, k) => leafData(at + k)))
    }
    const appendMs = performance.now() - appendStart
    const n = log.size
    const root = await log.root()

    // Fixed random positions (every run the same), and proofs made once for the verify subjects.
    const random = createRandom(3)
    const indexes = Array.from({ length: 1024 }, () => Math.floor(random() * n))
    const firsts = indexes.map((i) => 1 + i % (n - 1))
    const leafHashes = indexes.map((i) => hashLeaf(leafData(i)))
    const inclusions: InclusionProof[] = await Promise.all(indexes.map(async (i) => await log.proveInclusion(i)))
    const consistencies: ConsistencyProof[] = await Promise.all(firsts.map(async (m) => await log.proveConsistency(m)))
    const firstRoots = await Promise.all(firsts.map(async (m) => await log.root(m)))
    const at = (i: number): number => i % indexes.length

    const input = new Uint8Array(64)
    const baseline: Measure = () => timeBoxed((i) => { input[0] = i; sha256(input) }, budgetMs)
    const check = (ok: boolean): void => { if (!ok) throw new Error('a proof did not verify') }
    const subjects = new Map<string, Measure>([
      ['inclusion generated', async () => await timeBoxedAsync(async (i) => await log.proveInclusion(indexes[at(i)] as number), budgetMs)],
      [`inclusion generated, ${PARALLEL} in flight`, async () => await timeBoxedAsync(async (i) => await log.proveInclusion(indexes[at(i)] as number), budgetMs, PARALLEL)],
      ['inclusion verified', () => timeBoxed((i) => { check(verifyInclusion(leafHashes[at(i)] as Uint8Array, inclusions[at(i)] as InclusionProof, root)) }, budgetMs)],
      ['inclusion generated + verified', async () => await timeBoxedAsync(async (i) => {
        check(verifyInclusion(leafHashes[at(i)] as Uint8Array, await log.proveInclusion(indexes[at(i)] as number), root))
      }, budgetMs)],
      ['consistency generated', async () => await timeBoxedAsync(async (i) => await log.proveConsistency(firsts[at(i)] as number), budgetMs)],
      ['consistency verified', () => timeBoxed((i) => {
        check(verifyConsistency(consistencies[at(i)] as ConsistencyProof, firstRoots[at(i)] as Uint8Array, root))
      }, budgetMs)]
    ])
    progress(`measuring proofs: ${rounds} rounds × ${subjects.size} subjects`)
    const result = await interleave(baseline, subjects, rounds)
    const base = { name: BASELINE, value: median(result.baseline), unit: 'hashes/s' }
    const figures: Figure[] = [...subjects.keys()].map((name) => {
      const slot = result.subjects.get(name) ?? { rates: [], ratios: [] }
      return {
        section,
        name: `${name.startsWith('inclusion') ? 'inclusion proof' : 'consistency proof'}${name.slice(name.indexOf(' '))}`,
        value: median(slot.rates),
        unit: 'proofs/s',
        baseline: base,
        ratio: median(slot.ratios),
        detail: {
          rates: slot.rates.map(Math.round),
          ratios: slot.ratios.map((r) => Number(r.toFixed(5))),
          meanPathLength: mean(name.startsWith('inclusion') ? inclusions.map((p) => p.path.length) : consistencies.map((p) => p.path.length))
        }
      }
    })
    figures.push({
      section,
      name: `append, batches of ${appendBatch} (building the log)`,
      value: n / (appendMs / 1000),
      unit: 'leaves/s',
      baseline: base,
      ratio: n / (appendMs / 1000) / base.value,
      detail: { leaves: n, seconds: Number((appendMs / 1000).toFixed(2)) }
    })
    return figures
  } finally {
    await db.close()
    await rm(dir, { recursive: true, force: true })
  }
}

function mean (values: readonly number[]): number {
  return Number((values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)).toFixed(2))
}
