import { writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { benchCrypto, createSignedInputs, CRYPTO_SUBJECTS, rawVerifyMeasure } from './crypto.js'
import { createAgent } from './fixtures.js'
import {
  attestationIngestRound, batchRememberMeasure, createAttestationWorkload, openTempNode, PIPELINE_DEPTH, rememberMeasure
} from './ingest.js'
import { benchQueries, populate, type QueryShape } from './query.js'
import { benchLedger } from './ledger.js'
import { benchMerkle } from './merkle.js'
import { benchNetwork } from './network.js'
import { benchAnchors } from './anchors.js'
import { benchReindex } from './reindex.js'
import { benchReputation } from './reputation.js'
import { benchSelect } from './select.js'
import { benchSim } from './sim.js'
import { benchSimModel } from './sim-model.js'
import { benchCliStartup } from './cli-startup.js'
import { benchWitnessCost } from './witness-cost.js'
import { benchVrf, VRF_SUBJECTS } from './vrf.js'
import { benchContentRouting } from './content-routing.js'
import { describeMachine, formatTable, type Figure, type Results } from './report.js'
import { interleave, median, percentile, type RoundResult } from './stats.js'

/*
 * `npm run bench` (full run, writes bench/results.json) or `npm run bench -- --quick` (small sizes
 * for development; results go to the temp directory). Progress on stderr, the table on stdout.
 * Two long forms (the damage matrix, the API flood) are opt-in scripts, not figures here (they take minutes to an hour and
 * measure robustness, not speed): `npm run bench:damage -- --kills=1000 --jobs=3` (bench/damage-long.ts,
 * kill -9 loops) and `npm run bench:flood -- 10` (bench/api-flood.ts); BENCHMARKS.md has their figures.
 * The optional peer baseline for figure 8c is `npm run bench:orbitdb` (OrbitDB 4 replicating the
 * same 3,000 records on a loopback pair; bench/peers/orbitdb, its own dependencies, installed on first use).
 */

const quick = process.argv.includes('--quick')
/* `--model-10k` adds figure 14's 10,000-agent model-engine run (about a minute and 0.7 GB quiet). */
/**
 * `--only=1,3` runs those figures only (development; nothing is written to bench/results.json).
 * @default every figure
 */
const ALL_FIGURES = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17']
const only = new Set((process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',') ?? ALL_FIGURES).map(Number))
const partial = only.size < ALL_FIGURES.length
const SIZES = quick
  ? { rounds: 2, budgetMs: 60, rememberMs: 250, batchCount: 256, memories: 200, witnesses: 4, querySize: 10_000, queryRounds: 2, pairs: 25 }
  : { rounds: 5, budgetMs: 200, rememberMs: 800, batchCount: 1024, memories: 1000, witnesses: 6, querySize: 100_000, queryRounds: 4, pairs: 75 }
const INGEST_BATCH = 256
/** Figure 3's target: attestations ingested per second ≥ 70% of raw verifications per second. */
const INGEST_TARGET = 0.7
/** Figure 4's target: p99 of a tag + minTrust query below 20 ms. */
const QUERY_P99_TARGET_MS = 20
const RAW_VERIFY = 'raw crypto.verify'

function progress (message: string): void {
  process.stderr.write(`[bench ${(performance.now() / 1000).toFixed(0).padStart(3)} s] ${message}\n`)
}

function round3 (value: number): number {
  return Math.round(value * 1000) / 1000
}

function rateFigure (section: string, name: string, unit: string, result: RoundResult, subject: string, target?: number): Figure {
  const slot = result.subjects.get(subject) ?? { rates: [], ratios: [], cpuMicrosPerOp: [], mainThreadMicrosPerOp: [] }
  const ratio = median(slot.ratios)
  const figure: Figure = {
    section,
    name,
    value: median(slot.rates),
    unit,
    baseline: { name: RAW_VERIFY, value: median(result.baseline), unit: 'verify/s' },
    ratio,
    detail: { rates: slot.rates.map(Math.round), ratios: slot.ratios.map((r) => Number(r.toFixed(4))) }
  }
  if (slot.cpuMicrosPerOp.length > 0) {
    figure.detail = { ...figure.detail, cpuMicrosPerOp: Number(median(slot.cpuMicrosPerOp).toFixed(1)), baselineMicrosPerOp: Number((1e6 / median(result.baseline)).toFixed(1)) }
  }
  if (slot.mainThreadMicrosPerOp.length > 0) {
    figure.detail = { ...figure.detail, mainThreadMicrosPerOp: Number(median(slot.mainThreadMicrosPerOp).toFixed(1)) }
  }
  if (target !== undefined) figure.target = { text: `≥ ${target.toFixed(2)}× ${RAW_VERIFY}`, met: ratio >= target }
  return figure
}

async function runCrypto (figures: Figure[]): Promise<void> {
  progress('1. Ed25519 sign and verify')
  const result = await benchCrypto({ rounds: SIZES.rounds, budgetMs: SIZES.budgetMs })
  const units: Record<(typeof CRYPTO_SUBJECTS)[number], string> = {
    'sign (noble)': 'sign/s', 'signRecord (noble)': 'records/s', 'verify (noble)': 'verify/s', 'verify (node:crypto)': 'verify/s'
  }
  for (const subject of CRYPTO_SUBJECTS) figures.push(rateFigure('1. Ed25519', subject, units[subject], result, subject))
}

async function runVrf (figures: Figure[]): Promise<void> {
  progress('16. the witness draw\'s ECVRF: prove, verify, proof to hash')
  const result = await benchVrf({ rounds: SIZES.rounds, budgetMs: SIZES.budgetMs })
  for (const subject of VRF_SUBJECTS) {
    const figure = rateFigure('16. ECVRF (witness draw, RFC 9381 suite 0x03)', subject, 'ops/s', result, subject)
    figure.detail = { ...figure.detail, microsPerOp: Number((1e6 / figure.value).toFixed(1)) }
    figures.push(figure)
  }
}

async function runRemember (figures: Figure[]): Promise<void> {
  const inputs = createSignedInputs(256)
  const agent = createAgent(6, 0)
  const { node, dispose } = await openTempNode('remember')
  try {
    progress('2. memories created and stored (LocalNode: ledger journal + LevelDB)')
    const subjects = new Map([
      ['one', rememberMeasure(node, agent, SIZES.rememberMs)],
      ['batch', batchRememberMeasure(node, agent, SIZES.batchCount, INGEST_BATCH)]
    ])
    const result = await interleave(rawVerifyMeasure(inputs, SIZES.budgetMs), subjects, Math.min(3, SIZES.rounds))
    const section = '2. memories created + stored (LocalNode: ledger journal, LevelDB, Merkle log, views)'
    figures.push(rateFigure(section, 'remember, one at a time', 'memories/s', result, 'one'))
    figures.push(rateFigure(section, `signRecord + ingest, batches of ${INGEST_BATCH}`, 'memories/s', result, 'batch'))
  } finally {
    await dispose()
  }
}

async function runIngest (figures: Figure[]): Promise<void> {
  progress(`3. attestation ingest: ${SIZES.memories} memories × ${SIZES.witnesses} witnesses, batches of ${INGEST_BATCH}`)
  const workload = createAttestationWorkload({ memories: SIZES.memories, witnessesPerMemory: SIZES.witnesses })
  const inputs = createSignedInputs(256)
  const subjects = new Map([['ingest', async () => await attestationIngestRound(workload, INGEST_BATCH)]])
  const result = await interleave(rawVerifyMeasure(inputs, 4 * SIZES.budgetMs), subjects, SIZES.rounds)
  const section = `3. attestation ingest (${SIZES.memories} memories × ${SIZES.witnesses} witnesses, batches of ${INGEST_BATCH}, pipeline depth ${PIPELINE_DEPTH})`
  const figure = rateFigure(section, 'bytes → verified, stored, indexed, rescored', 'attestations/s', result, 'ingest', INGEST_TARGET)
  figure.detail = { ...figure.detail, attestationsPerRound: workload.attestations.length }
  figures.push(figure)
}

async function runQueries (figures: Figure[]): Promise<void> {
  progress(`4. populating a LevelDB store with ${SIZES.querySize.toLocaleString('en-US')} signed memories`)
  const setup = await populate(SIZES.querySize)
  try {
    progress(`4. queries: ${SIZES.queryRounds} rounds × ${SIZES.pairs} of each shape (populated in ${(setup.populateMs / 1000).toFixed(1)} s)`)
    const latencies = await benchQueries(setup, { rounds: SIZES.queryRounds, pairs: SIZES.pairs })
    const p = (shape: QueryShape, at: number): number => percentile(latencies.get(shape) ?? [], at)
    const baselines: QueryShape[] = ['get (baseline)', 'raw 50-entry range (baseline)']
    const shapes: QueryShape[] = ['tag + minTrust', 'author', 'type + time range', 'tag, 2nd page']
    const section = `4. query latency, ${SIZES.querySize.toLocaleString('en-US')} memories, limit 50`
    const raw = { name: 'raw range p99', value: p('raw 50-entry range (baseline)', 99), unit: 'ms' }
    for (const shape of [...shapes, ...baselines]) {
      const baseline = shape === 'raw 50-entry range (baseline)' ? { name: 'get p99', value: p('get (baseline)', 99), unit: 'ms' } : raw
      const figure: Figure = {
        section,
        name: shape,
        value: p(shape, 99),
        unit: 'ms',
        baseline,
        ratio: p(shape, 99) / baseline.value,
        detail: { p50: round3(p(shape, 50)), p95: round3(p(shape, 95)), samples: latencies.get(shape)?.length ?? 0, populateSeconds: round3(setup.populateMs / 1000) }
      }
      if (shape === 'tag + minTrust') figure.target = { text: `p99 < ${QUERY_P99_TARGET_MS} ms`, met: figure.value < QUERY_P99_TARGET_MS }
      figures.push(figure)
    }
  } finally {
    await setup.store.close()
    await setup.remove()
  }
}

async function main (): Promise<void> {
  const load = loadavg()[0] ?? 0
  const start = performance.now()
  const figures: Figure[] = []
  if (only.has(1)) await runCrypto(figures)
  if (only.has(2)) await runRemember(figures)
  if (only.has(3)) await runIngest(figures)
  if (only.has(4)) await runQueries(figures)
  // The ledger (durable appends, reads), reindex, and the transparency log.
  if (only.has(5)) figures.push(...await benchLedger({ rounds: SIZES.rounds, budgetMs: SIZES.budgetMs * 2 }))
  if (only.has(6)) figures.push(...await benchReindex({ events: quick ? 10_000 : 100_000, rounds: quick ? 1 : 2, progress }))
  if (only.has(7)) figures.push(...await benchMerkle({ leaves: quick ? 10_000 : 100_000, rounds: quick ? 1 : 3, section: '7. transparency log (RFC 6962 on LevelDB)', progress }))
  // The network.
  if (only.has(8)) figures.push(...await benchNetwork({ quick, progress }))
  // Anchors.
  if (only.has(9)) figures.push(...await benchAnchors({ bytes: quick ? 20_000_000 : 100_000_000, rounds: quick ? 2 : 5, progress }))
  // Reputation, and the FDR memory layer's select() and verifyProof().
  if (only.has(10)) figures.push(...await benchReputation({ agents: quick ? 10_000 : 100_000, attestations: quick ? 100_000 : 1_000_000, rounds: quick ? 1 : 3, progress }))
  if (only.has(11)) figures.push(...await benchSelect({ memories: quick ? 10_000 : 100_000, selections: quick ? 100 : 400, budgetMs: SIZES.budgetMs, progress }))
  // The network simulation.
  if (only.has(12)) figures.push(...await benchSim({ quick, progress }))
  // CLI start-up: what every command pays before it runs.
  if (only.has(13)) figures.push(...await benchCliStartup({ rounds: quick ? 5 : 11, progress }))
  // The simulation's model engine (the 10,000-agent run only with --model-10k).
  if (only.has(14)) figures.push(...await benchSimModel({ quick, tenThousand: process.argv.includes('--model-10k'), progress }))
  // What witnessing costs per memory as the network grows: 8, 16 and 32 real daemons on defaults.
  if (only.has(15)) figures.push(...await benchWitnessCost({ sizes: quick ? [8, 16] : [8, 16, 32], memories: quick ? 2 : 3, progress }))
  // The witness draw's ECVRF (protocols/witness-draw-v1.md).
  if (only.has(16)) await runVrf(figures)
  // Content routing by CID through the DHT (protocols/content-routing-v1.md): a 12-node Kademlia line.
  if (only.has(17)) figures.push(...await benchContentRouting({ line: 12, samples: quick ? 7 : 21, progress }))
  const results: Results = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
    quick,
    durationSeconds: (performance.now() - start) / 1000,
    machine: describeMachine(load),
    figures
  }
  process.stdout.write(formatTable(results) + '\n')
  const out = quick || partial ? join(tmpdir(), `isnad-bench-results.${quick ? 'quick' : 'partial'}.json`) : fileURLToPath(new URL('../../bench/results.json', import.meta.url))
  await writeFile(out, JSON.stringify(results, null, 2) + '\n')
  progress(`results written to ${out}`)
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exitCode = 1
})
