import { createSignedInputs, rawVerifyMeasure } from './crypto.js'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { baselineBuild } from './baseline-build.js'
import { runGossip, type GossipRunResult } from './network-gossip.js'
import { runGossipThreaded } from './network-gossip-threads.js'
import { runSync } from './network-sync.js'
import { runWitness } from './network-witness.js'
import type { Figure } from './report.js'
import { median, percentile, rateOf, type Sample } from './stats.js'

/*
 * Benchmark 8: the network node with real js-libp2p 3 nodes on 127.0.0.1, all in this
 * process. In 8a the 100 nodes run once all on this JavaScript thread and once spread over worker
 * threads (one per core; network-gossip-threads.ts): on one thread every latency includes the other
 * 99 nodes' work, which a deployment, one node per process, never waits for. 8b and 8c share this
 * thread (and libuv's pool). Each figure has a baseline measured in the same run:
 * - gossip delivery, latency and verifications: the same measurement with 2 nodes (1 hop), and the
 *   threaded gossip run of the build before the ingest pipeline (baseline-build.ts), in rounds
 *   alternating with this build's;
 * - CPU per delivered message: one raw OpenSSL verification (`crypto.verify`, bench/crypto.ts);
 * - witness round trip: one remember + one attest on a local node, interleaved request by request;
 * - sync catch-up: the same records ingested by a fresh node from memory, alternating rounds.
 */

export interface NetworkBenchOptions {
  quick: boolean
  progress?: (text: string) => void
}

/**
 * Gossip publications are spaced so that one memory has mostly reached every node before the next
 * goes out: in one process the 99 deliveries of a memory cost all nodes together ~0.4 s of CPU here
 * (mostly libp2p framing: ~9 RPCs in per delivery), so 100 ms apart would measure a queue, not a
 * latency. The background CPU is sampled over a whole libp2p ping cycle (every connection every 10 s).
 */
const SIZES = {
  full: { nodes: 100, messages: 40, spacingMs: 1000, idleSampleMs: 10_000, daemons: 20, requests: 10, daemonDials: 4, memories: 1000, syncRounds: 3, syncWarmups: 1 },
  quick: { nodes: 20, messages: 20, spacingMs: 100, idleSampleMs: 2000, daemons: 8, requests: 5, daemonDials: 3, memories: 250, syncRounds: 1, syncWarmups: 0 }
}
/** Each node dials this many others (plus being dialled): an average degree of about 8. */
const DIALS_PER_NODE = 4
/** The 2-node baseline: spacing does not matter for one hop, so it runs fast. */
const BASELINE_SPACING_MS = 50
const BASELINE_IDLE_SAMPLE_MS = 1000
const WITNESSES = 3
const ATTESTATIONS_PER_MEMORY = 2
const RAW_VERIFY_BUDGET_MS = 200

/** The network's targets. */
const TARGETS = { gossipP50Ms: 100, gossipP99Ms: 500, verificationsPerMessage: 1.2, witnessP50Ms: 250, syncMemoriesPerSecond: 2500 }

function round3 (value: number): number {
  return Math.round(value * 1000) / 1000
}

function deliveredPercent (run: GossipRunResult): number {
  return 100 * run.delivered / run.expected
}

/** Signature checks per (message, node), the publisher's own check of its memories included. */
function verificationsPerMessage (run: GossipRunResult): number {
  return run.verifications / (run.messages * run.nodes)
}

/** Raw OpenSSL verification time, µs: the median of a few time-boxed samples. */
function rawVerifyMicros (samples: number): number {
  const measure = rawVerifyMeasure(createSignedInputs(64), RAW_VERIFY_BUDGET_MS)
  const rates: number[] = []
  for (let i = 0; i < samples; i++) rates.push(rateOf(measure() as Sample))
  return 1e6 / median(rates)
}

/**
 * `threads`: the JavaScript threads the nodes ran on (1: all on this one). The targets are
 * checked on the threaded run, where a node does not wait for 99 others' work on its own thread;
 * the one-thread run is kept beside it for comparison with earlier runs.
 */
function gossipFigures (run: GossipRunResult, base: GossipRunResult, verifyMicros: number, spacingMs: number, threads: number): Figure[] {
  const where = threads === 1 ? 'all on one JavaScript thread (for comparison)' : `spread over ${threads} worker threads`
  const section = `8a. gossip: ${run.nodes} nodes in one process, ${where}, libp2p on 127.0.0.1 (${run.messages} memories published by one node, ${spacingMs} ms apart)`
  const withTarget = threads > 1
  const p = (values: number[], at: number): number => percentile(values, at)
  const p50 = p(run.latencies, 50)
  const p99 = p(run.latencies, 99)
  const baseP99 = p(base.latencies, 99)
  // Per message, the spread over the nodes: a message caught by a burst of other work (every
  // connection is pinged every 10 s) shows in its own tail, not in the typical message's.
  const messageP50 = run.latenciesByMessage.map((l) => p(l, 50))
  const messageP99 = run.latenciesByMessage.map((l) => p(l, 99))
  const perMessage = verificationsPerMessage(run)
  const deliveries = Math.max(1, run.delivered)
  const cpuMicros = 1000 * run.cpuMs / deliveries
  const idleCorrected = 1000 * (run.cpuMs - run.idleCpuMsPerSecond * run.elapsedMs / 1000) / deliveries
  return [
    {
      section,
      name: 'delivery: memories stored at every other node',
      value: deliveredPercent(run),
      unit: '% delivered',
      baseline: { name: '2 nodes, 1 hop', value: deliveredPercent(base), unit: '%' },
      ratio: deliveredPercent(run) / deliveredPercent(base),
      ...(withTarget ? { target: { text: '100%', met: run.delivered === run.expected } } : {}),
      detail: {
        delivered: run.delivered, expected: run.expected, duplicatesHandedToHosts: run.duplicates, averageDegree: round3(run.degree),
        setupSeconds: round3(run.setupMs / 1000), meshSeconds: round3(run.meshMs / 1000)
      }
    },
    {
      section,
      name: 'latency: publish → accept (stored) at each node',
      value: p99,
      unit: 'ms',
      baseline: { name: '1 hop (2 nodes) p99', value: baseP99, unit: 'ms' },
      ratio: p99 / baseP99,
      ...(withTarget ? { target: { text: `p50 < ${TARGETS.gossipP50Ms} ms, p99 < ${TARGETS.gossipP99Ms} ms`, met: p50 < TARGETS.gossipP50Ms && p99 < TARGETS.gossipP99Ms } } : {}),
      detail: {
        p50: round3(p50), p95: round3(p(run.latencies, 95)), max: round3(p(run.latencies, 100)), samples: run.latencies.length,
        baselineP50: round3(p(base.latencies, 50)), baselineP95: round3(p(base.latencies, 95)), baselineSamples: base.latencies.length,
        p50Ratio: round3(p50 / p(base.latencies, 50)),
        medianMessageP50: round3(median(messageP50)), medianMessageP99: round3(median(messageP99)),
        worstMessageP99: round3(Math.max(...messageP99)),
        messagesWithP99Over500Ms: messageP99.filter((x) => x >= TARGETS.gossipP99Ms).length
      }
    },
    {
      section,
      name: 'signature verifications per message per node',
      value: 1000 * perMessage,
      unit: 'per 1,000 message·node',
      baseline: { name: '2 nodes', value: 1000 * verificationsPerMessage(base), unit: 'per 1,000' },
      ratio: perMessage / verificationsPerMessage(base),
      ...(withTarget ? { target: { text: `≤ ${(1000 * TARGETS.verificationsPerMessage).toLocaleString('en-US')} per 1,000 (${TARGETS.verificationsPerMessage} each)`, met: perMessage <= TARGETS.verificationsPerMessage } } : {}),
      detail: { perMessagePerNode: round3(perMessage), verifications: run.verifications, mostChecksOfOneRecordAtOneNode: run.maxVerificationsPerRecord }
    },
    {
      section,
      name: 'CPU per delivered message (process, all threads)',
      value: cpuMicros,
      unit: 'µs/delivery',
      baseline: { name: 'raw crypto.verify', value: verifyMicros, unit: 'µs/verify' },
      ratio: cpuMicros / verifyMicros,
      detail: {
        mainThreadMicrosPerDelivery: round3(1000 * run.mainThreadCpuMs / deliveries),
        idleCorrectedMicrosPerDelivery: round3(idleCorrected),
        idleCpuMsPerSecond: round3(run.idleCpuMsPerSecond),
        cpuMs: round3(run.cpuMs), wallMs: round3(run.elapsedMs),
        twoNodeMicrosPerDelivery: round3(1000 * base.cpuMs / Math.max(1, base.delivered))
      }
    }
  ]
}

/** `--network=sync,witness` runs only those parts of figure 8 (development); all three by default. */
const NETWORK_PARTS = ['gossip', 'witness', 'sync'] as const
function networkParts (): Set<string> {
  const arg = process.argv.find((a) => a.startsWith('--network='))
  return new Set(arg === undefined ? NETWORK_PARTS : arg.slice('--network='.length).split(','))
}

export async function benchNetwork (options: NetworkBenchOptions): Promise<Figure[]> {
  const size = options.quick ? SIZES.quick : SIZES.full
  const progress = options.progress ?? (() => {})
  const figures: Figure[] = []
  const parts = networkParts()
  const threads = Math.max(2, availableParallelism())
  if (parts.has('gossip')) figures.push(...await benchGossip(size, threads, progress, options.quick))
  if (parts.has('witness')) figures.push(...await benchWitness(size, threads, progress))
  if (parts.has('sync')) figures.push(...await benchSync(size, progress))
  return figures
}

type Size = (typeof SIZES)['full']

/**
 * Figure 8a's baseline build, measured in the same run: the commit before the ingest pipeline
 * (`--gossip-baseline=REF` measures against another commit, `--gossip-baseline=none` skips it).
 */
const GOSSIP_BASELINE_REF = '2e29775'
/** Threaded rounds of each build, alternating (baseline, current, baseline, …): the target holds in every round. */
const GOSSIP_ROUNDS = { full: 3, quick: 1 }

function gossipBaselineRef (): string | undefined {
  const ref = process.argv.find((a) => a.startsWith('--gossip-baseline='))?.slice('--gossip-baseline='.length) ?? GOSSIP_BASELINE_REF
  return ref === 'none' ? undefined : ref
}

type ThreadedRun = typeof runGossipThreaded

/** runGossipThreaded of the baseline build, or undefined when it could not be built (said on progress). */
async function baselineGossip (ref: string, progress: (text: string) => void): Promise<ThreadedRun | undefined> {
  try {
    const root = await baselineBuild(ref, progress)
    const module = await import(pathToFileURL(join(root, 'dist', 'bench', 'network-gossip-threads.js')).href) as { runGossipThreaded: ThreadedRun }
    return module.runGossipThreaded
  } catch (err) {
    progress(`8a. baseline ${ref} could not be built, measured without it: ${err instanceof Error ? err.message : String(err)}`)
    return undefined
  }
}

async function benchGossip (size: Size, threads: number, progress: (text: string) => void, quick: boolean): Promise<Figure[]> {
  const figures: Figure[] = []
  progress(`8a. gossip baseline: 2 nodes, ${size.messages} memories`)
  const base = await runGossip({ nodes: 2, messages: size.messages, spacingMs: BASELINE_SPACING_MS, dialsPerNode: 1, idleSampleMs: BASELINE_IDLE_SAMPLE_MS, seed: 1, progress: (t) => { progress(`8a. ${t}`) } })
  const verifyBefore = rawVerifyMicros(3)
  progress(`8a. gossip: starting ${size.nodes} nodes, each dialling ${DIALS_PER_NODE}`)
  const options = { nodes: size.nodes, messages: size.messages, spacingMs: size.spacingMs, dialsPerNode: DIALS_PER_NODE, idleSampleMs: size.idleSampleMs, seed: 2, progress: (t: string) => { progress(`8a. ${t}`) } }
  // All 100 nodes on this thread, for comparison only: on a busy machine their meshes may not form
  // in time, and the threaded rounds (the target's figure) are still measured.
  const run = await runGossip(options).catch((err: unknown) => {
    progress(`8a. the one-thread run failed, measured without it: ${err instanceof Error ? err.message : String(err)}`)
    return undefined
  })
  const ref = gossipBaselineRef()
  const baseline = ref === undefined ? undefined : await baselineGossip(ref, progress)
  const rounds: GossipRunResult[] = []
  const baselineRounds: GossipRunResult[] = []
  for (let round = 0; round < GOSSIP_ROUNDS[quick ? 'quick' : 'full']; round++) {
    if (baseline !== undefined && ref !== undefined) {
      progress(`8a. gossip, round ${round + 1}: the baseline build ${ref}, ${size.nodes} nodes over ${threads} worker threads`)
      baselineRounds.push(await baseline({ ...options, threads }))
    }
    progress(`8a. gossip, round ${round + 1}: ${size.nodes} nodes spread over ${threads} worker threads`)
    rounds.push(await runGossipThreaded({ ...options, threads }))
  }
  const verifyMicros = median([verifyBefore, rawVerifyMicros(3)])
  if (run !== undefined) figures.push(...gossipFigures(run, base, verifyMicros, size.spacingMs, 1))
  // The round whose p99 is the median one stands for the threaded run; every round is in the detail.
  const byP99 = [...rounds].sort((a, b) => percentile(a.latencies, 99) - percentile(b.latencies, 99))
  figures.push(...gossipFigures(byP99[Math.floor((byP99.length - 1) / 2)] as GossipRunResult, base, verifyMicros, size.spacingMs, threads))
  if (ref !== undefined && baselineRounds.length > 0) figures.push(gossipAgainstBaseline(rounds, baselineRounds, ref, size.nodes, threads))
  return figures
}

/** The threaded rounds against the baseline build's, round by round: p50 · p95 · p99 of each. */
function gossipAgainstBaseline (rounds: readonly GossipRunResult[], baselineRounds: readonly GossipRunResult[], ref: string, nodes: number, threads: number): Figure {
  const at = (runs: readonly GossipRunResult[], p: number): number[] => runs.map((r) => round3(percentile(r.latencies, p)))
  const p99 = at(rounds, 99)
  const every = rounds.every((r) => percentile(r.latencies, 99) < TARGETS.gossipP99Ms && r.delivered === r.expected)
  return {
    section: `8a. gossip: ${nodes} nodes over ${threads} worker threads, ${rounds.length} round(s) alternating with the build of ${ref}`,
    name: 'latency p99, median of the rounds (every round\'s p50 · p95 · p99 in the detail)',
    value: median(p99),
    unit: 'ms',
    baseline: { name: `build ${ref}, p99 median of its rounds`, value: median(at(baselineRounds, 99)), unit: 'ms' },
    ratio: median(p99) / median(at(baselineRounds, 99)),
    target: { text: `p99 < ${TARGETS.gossipP99Ms} ms in every round`, met: every },
    detail: {
      p50: at(rounds, 50), p95: at(rounds, 95), p99,
      baselineP50: at(baselineRounds, 50), baselineP95: at(baselineRounds, 95), baselineP99: at(baselineRounds, 99),
      delivered: rounds.map((r) => r.delivered), baselineDelivered: baselineRounds.map((r) => r.delivered),
      idleCpuMsPerSecond: rounds.map((r) => round3(r.idleCpuMsPerSecond)), baselineIdleCpuMsPerSecond: baselineRounds.map((r) => round3(r.idleCpuMsPerSecond))
    }
  }
}

async function benchWitness (size: Size, threads: number, progress: (text: string) => void): Promise<Figure[]> {
  const figures: Figure[] = []
  // Once on this thread (the target's figure), once spread over worker threads for comparison.
  for (const witnessThreads of [0, threads]) {
    progress(`8b. witness round trip: starting ${size.daemons} daemons${witnessThreads === 0 ? '' : ` in ${witnessThreads} worker threads`}`)
    const witness = await runWitness({ nodes: size.daemons, threads: witnessThreads, witnesses: WITNESSES, requests: size.requests, dialsPerNode: size.daemonDials, seed: 3, progress: (t) => { progress(`8b. ${t}`) } })
    const rtP50 = percentile(witness.roundTrips, 50)
    const rtP99 = percentile(witness.roundTrips, 99)
    const localP99 = percentile(witness.baseline, 99)
    const where = witnessThreads === 0 ? 'in one process' : `in one process, spread over ${witnessThreads} worker threads (for comparison)`
    figures.push({
      section: `8b. witness round trip: ${size.daemons} daemons ${where} (startDaemon: LevelDB, ledger, HTTP API, libp2p on 127.0.0.1), witnesses auto-confirm`,
      name: `request (HTTP to A) → ${WITNESSES} attestations stored at A (A's event stream)`,
      value: rtP99,
      unit: 'ms',
      baseline: { name: 'local remember + attest p99', value: localP99, unit: 'ms' },
      ratio: rtP99 / localP99,
      ...(witnessThreads === 0 ? { target: { text: `p50 < ${TARGETS.witnessP50Ms} ms`, met: rtP50 < TARGETS.witnessP50Ms } } : {}),
      detail: {
        p50: round3(rtP50), p95: round3(percentile(witness.roundTrips, 95)), samples: witness.roundTrips.length,
        roundTrips: witness.roundTrips.map(Math.round),
        firstAttestationP50: round3(percentile(witness.firstAttestations, 50)),
        requestCallP50: round3(percentile(witness.requestCalls, 50)),
        processCpuMsPerRoundTripP50: round3(percentile(witness.roundTripCpuMs, 50)),
        baselineP50: round3(percentile(witness.baseline, 50)),
        p50Ratio: round3(rtP50 / percentile(witness.baseline, 50)),
        setupSeconds: round3(witness.setupMs / 1000)
      }
    })
  }
  return figures
}

async function benchSync (size: Size, progress: (text: string) => void): Promise<Figure[]> {
  const figures: Figure[] = []
  progress(`8c. sync catch-up: ${size.memories} memories × ${ATTESTATIONS_PER_MEMORY} attestations`)
  const sync = await runSync({ memories: size.memories, witnessesPerMemory: ATTESTATIONS_PER_MEMORY, rounds: size.syncRounds, warmups: size.syncWarmups, seed: 4, progress: (t) => { progress(`8c. ${t}`) } })
  const rates = sync.sync.map(rateOf)
  const baseRates = sync.baseline.map(rateOf)
  const ratios = rates.map((r, i) => r / (baseRates[i] as number))
  const cpuPerRecord = (samples: Sample[], of: (s: Sample) => number | undefined = (s) => s.cpuMs): number => median(samples.map((s) => 1000 * (of(s) ?? 0) / sync.records))
  const syncRate = median(rates)
  // However the work is spread over threads, a round cannot take less wall time than its CPU time
  // (both nodes, every thread) shared by every core, nor less than B's main thread alone needs.
  const cores = availableParallelism()
  const cpuBoundRate = median(sync.sync.map((s) => s.ops / (Math.max((s.cpuMs ?? 0) / cores, s.mainThreadCpuMs ?? 0) / 1000)))
  const section = `8c. sync catch-up: A holds ${size.memories.toLocaleString('en-US')} memories + ${(sync.records - size.memories).toLocaleString('en-US')} attestations; A on a thread of its own; B (fresh) dials A and syncs (sync-v1); both LocalNode + the daemon's NetHost`
  figures.push({
    section,
    name: 'memories caught up (verified, journaled, stored with their attestations)',
    value: syncRate,
    unit: 'memories/s',
    baseline: { name: 'direct LocalNode.ingest, no network', value: median(baseRates), unit: 'memories/s' },
    ratio: median(ratios),
    target: { text: `≥ ${TARGETS.syncMemoriesPerSecond.toLocaleString('en-US')} memories/s`, met: syncRate >= TARGETS.syncMemoriesPerSecond },
    detail: {
      rates: rates.map(Math.round), baselineRates: baseRates.map(Math.round), ratios: ratios.map(round3),
      recordsPerSecond: Math.round(syncRate * sync.records / sync.memories),
      cpuMicrosPerRecord: round3(cpuPerRecord(sync.sync)), baselineCpuMicrosPerRecord: round3(cpuPerRecord(sync.baseline)),
      mainThreadCpuMicrosPerRecordAtB: round3(cpuPerRecord(sync.sync, (s) => s.mainThreadCpuMs)),
      cores, cpuBoundMemoriesPerSecond: Math.round(cpuBoundRate),
      verificationsPerRecordAtB: round3(sync.verificationsPerRecord),
      populateSeconds: round3(sync.populateMs / 1000)
    }
  })
  // Diagnostic, not a target: how much of the catch-up time is signature checking.
  const uncheckedRates = sync.unchecked.map(rateOf)
  figures.push({
    section,
    name: 'diagnostic: the same sync, B skipping signature checks',
    value: median(uncheckedRates),
    unit: 'memories/s',
    baseline: { name: 'the sync above (checked)', value: syncRate, unit: 'memories/s' },
    ratio: median(uncheckedRates.map((r, i) => r / (rates[i] as number))),
    detail: { rates: uncheckedRates.map(Math.round), cpuMicrosPerRecord: round3(cpuPerRecord(sync.unchecked)) }
  })
  return figures
}
