import type { TrustLevel } from 'isnad/engine'
import type { Observations, WitnessLoad } from './observations.js'
import type { Plan } from '../scenario/index.js'
import type { NodeCounters } from '../pools/index.js'
import { rocAuc } from './stats.js'
import type { TrustView } from './trust-views.js'

/*
 * The metrics of one run (docs/simulation.md, "Metrics"), from the driver's observations, the
 * observers' trust views and the nodes' counters. Pure: the same inputs give the same numbers.
 */

export interface Percentiles { samples: number, p50: number | null, p90: number | null, p99: number | null, max: number | null }

export interface PolicyAccuracy {
  policy: string
  /** AUC of trust for true against false memories (1: perfect ranking, 0.5: a coin). */
  auc: number | null
  /** Share of false memories an observer rates Anchored or Consensus. */
  falseAnchoredShare: number | null
  /** Share of false memories an observer rates Attested or better. */
  falseAttestedShare: number | null
  /** Share of true memories an observer leaves Unverified. */
  trueUnverifiedShare: number | null
  meanTrustTrue: number | null
  meanTrustFalse: number | null
  /** Mean trust of Sybil-authored memories (null without Sybils). */
  sybilMeanTrust: number | null
  /** Share of Sybil-authored memories rated Attested or better. */
  sybilAttestedShare: number | null
  /** Counts of (observer, memory) pairs, for the trust distribution plot: 10 bins of 0.1. */
  histogram: { true: number[], false: number[] }
}

export interface PerNodeSummary {
  messagesMean: number
  messagesMax: number
  /** Gossip payload bytes received: messages × mean record size (libp2p framing, Noise and control traffic not included). */
  payloadBytesMean: number
  verificationsMean: number
  cpuMsMean: number
}

export interface RunMetrics {
  memories: { planned: number, published: number, true: number, false: number }
  delivery: {
    /** Memories held by each node online at the end / (published × online nodes). */
    memoryRatio: number | null
    /** Attestation arrivals at nodes online at the end / expected. */
    attestationRatio: number | null
    latencyMs: Percentiles
    /** [ms, cumulative share] points of the attestation gossip latency. */
    latencyCdf: Array<[number, number]>
  }
  witness: {
    requestDelayMs: Percentiles
    roundTripMs: Percentiles
    missedAnswers: number
    /** Witness requests per published memory, network-wide: the author's own and every private check. Absent in older results. */
    requestsPerMemory?: number | null
    /** Attestations per published memory, network-wide. Absent in older results. */
    attestationsPerMemory?: number | null
    /** Nodes that ran the default checks (witness draw, private checks): every node, or 0 without checks. Absent in older results. */
    checkingNodes?: number
    /** The draw's detail per published memory: witnesses drawn, their answers, private checks; answers skipped for the budget. */
    draw?: { drawnPerMemory: number | null, drawnAnswersPerMemory: number | null, privateChecksPerMemory: number | null, budgetSkipped: number }
  }
  trust: PolicyAccuracy[]
  /** null when the runner read no node counters (every runner reads them today; kept for older results). */
  perNode: PerNodeSummary | null
}

const ANCHORED: ReadonlySet<TrustLevel> = new Set(['Anchored', 'Consensus'])
const CDF_POINTS = 100

function round (value: number, digits = 3): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

function orNull (value: number): number | null {
  return Number.isFinite(value) ? round(value, 4) : null
}

export function percentilesOf (values: readonly number[]): Percentiles {
  // One typed-array sort for every percentile: results have up to millions of samples (the model engine).
  return percentilesOfSorted(Float64Array.from(values).sort())
}

/**
 * A sample's values in ascending order, read by 0-based rank: a sorted Float64Array, or the few ranks
 * order-statistics.ts selects from an unsorted one (summaryRanks says which).
 */
export interface RankedSample {
  readonly length: number
  at: (rank: number) => number | undefined
}

/** percentilesOf on values already sorted ascending (the model engine selects millions once for both this and the CDF). */
export function percentilesOfSorted (sorted: RankedSample): Percentiles {
  const at = (p: number): number | null => sorted.length === 0 ? null : round(nearestRank(sorted, p), 1)
  return { samples: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) }
}

/** stats.ts `percentile` on values already sorted ascending. */
function nearestRank (sorted: RankedSample, p: number): number {
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted.at(rank - 1) as number
}

export function cdfOf (values: readonly number[]): Array<[number, number]> {
  return cdfOfSorted(Float64Array.from(values).sort())
}

/** cdfOf on values already sorted ascending. */
export function cdfOfSorted (sorted: RankedSample): Array<[number, number]> {
  if (sorted.length === 0) return []
  const step = Math.max(1, Math.floor(sorted.length / CDF_POINTS))
  const points: Array<[number, number]> = []
  for (let i = step - 1; i < sorted.length; i += step) points.push([round(sorted.at(i) as number, 1), round((i + 1) / sorted.length, 4)])
  const last = sorted.at(sorted.length - 1) as number
  if (points[points.length - 1]?.[1] !== 1) points.push([round(last, 1), 1])
  return points
}

/**
 * The ranks percentilesOfSorted and cdfOfSorted read of a sample of `length` values: which ones they
 * read depends on the length alone, so a sample that answers every rank with 0 lists them.
 */
export function summaryRanks (length: number): number[] {
  const read = new Set<number>()
  const probe: RankedSample = { length, at: (rank) => { read.add(rank); return 0 } }
  percentilesOfSorted(probe)
  cdfOfSorted(probe)
  return [...read].sort((a, b) => a - b)
}

function mean (values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length
}

function share (values: readonly boolean[]): number {
  return values.length === 0 ? Number.NaN : values.filter(Boolean).length / values.length
}

export interface MetricsInput {
  plan: Plan
  observations: Observations
  /** One per observer that was online at the end. */
  views: TrustView[]
  /**
   * The memory ids each view is judged on, by view (a sharded node's: its home shards'); absent: every
   * published memory, a memory the observer lacks counting as trust 0.
   */
  judged?: ReadonlyArray<ReadonlySet<string>>
  /** Memories held by each node online at the end. */
  memoryCounts: number[]
  counters: NodeCounters[]
  /** Mean encoded size of a gossiped record, bytes. */
  meanRecordBytes: number
  policies: readonly string[]
}

export function computeMetrics (input: MetricsInput): RunMetrics {
  const { plan, observations } = input
  const published = observations.memories.filter((m) => m.id !== undefined)
  const online = new Set(observations.onlineAtEnd)
  const latencies: number[] = []
  let arrived = 0
  let expected = 0
  for (const a of observations.attestations.values()) {
    for (const node of online) {
      if (node === a.witness) continue
      expected++
      const at = a.arrivals.get(node)
      if (at === undefined) {
        if (a.held?.has(node) === true) arrived++ // held at the end, its arrival unseen (held-attestations.ts)
        continue
      }
      arrived++
      latencies.push(at - a.sentAt)
    }
  }
  const memoryExpected = published.length * input.memoryCounts.length
  const memoryHeld = input.memoryCounts.reduce((sum, n) => sum + Math.min(n, published.length), 0)
  return {
    memories: { planned: plan.memories.length, published: published.length, true: published.filter((m) => m.truth).length, false: published.filter((m) => !m.truth).length },
    delivery: {
      memoryRatio: memoryExpected === 0 ? null : round(memoryHeld / memoryExpected, 4),
      attestationRatio: expected === 0 ? null : round(arrived / expected, 4),
      latencyMs: percentilesOf(latencies),
      latencyCdf: cdfOf(latencies)
    },
    witness: {
      requestDelayMs: percentilesOf(observations.requestDelays),
      roundTripMs: percentilesOf(observations.witnessRoundTrips),
      missedAnswers: observations.missedAnswers,
      ...witnessLoadMetrics(observations.witnessLoad, published.length)
    },
    trust: input.policies.map((policy) => policyAccuracy(policy, input)),
    perNode: input.counters.length === 0 ? null : perNodeSummary(input.counters, input.meanRecordBytes)
  }
}

function witnessLoadMetrics (load: WitnessLoad, published: number): Pick<RunMetrics['witness'], 'requestsPerMemory' | 'attestationsPerMemory' | 'checkingNodes' | 'draw'> {
  const per = (n: number): number | null => published === 0 ? null : round(n / published, 3)
  return {
    requestsPerMemory: per(load.requests),
    attestationsPerMemory: per(load.attestations),
    checkingNodes: load.checkingNodes,
    draw: { drawnPerMemory: per(load.drawn), drawnAnswersPerMemory: per(load.drawnAnswers), privateChecksPerMemory: per(load.privateChecks), budgetSkipped: load.budgetSkipped }
  }
}

/** Trust against ground truth at every observer, pooled over the memories each is judged on; a memory an observer lacks counts as trust 0, Unverified. */
function policyAccuracy (policy: string, input: MetricsInput): PolicyAccuracy {
  const scored: Array<{ truth: boolean, sybil: boolean, score: number, level: TrustLevel }> = []
  input.views.forEach((view, v) => {
    const scores = view.get(policy)
    const judged = input.judged?.[v]
    for (const m of input.observations.memories) {
      if (m.id === undefined || (judged !== undefined && !judged.has(m.id))) continue
      const found = scores?.get(m.id)
      scored.push({ truth: m.truth, sybil: input.plan.roles[m.author] === 'sybil', score: found?.score ?? 0, level: found?.level ?? 'Unverified' })
    }
  })
  const truths = scored.filter((s) => s.truth)
  const falses = scored.filter((s) => !s.truth)
  const sybils = scored.filter((s) => s.sybil)
  const histogram = (list: typeof scored): number[] => {
    const bins = Array.from({ length: 10 }, () => 0)
    for (const s of list) bins[Math.min(9, Math.floor(s.score * 10))]! += 1
    return bins
  }
  return {
    policy,
    auc: orNull(rocAuc(truths.map((s) => s.score), falses.map((s) => s.score))),
    falseAnchoredShare: orNull(share(falses.map((s) => ANCHORED.has(s.level)))),
    falseAttestedShare: orNull(share(falses.map((s) => s.level !== 'Unverified'))),
    trueUnverifiedShare: orNull(share(truths.map((s) => s.level === 'Unverified'))),
    meanTrustTrue: orNull(mean(truths.map((s) => s.score))),
    meanTrustFalse: orNull(mean(falses.map((s) => s.score))),
    sybilMeanTrust: orNull(mean(sybils.map((s) => s.score))),
    sybilAttestedShare: orNull(share(sybils.map((s) => s.level !== 'Unverified'))),
    histogram: { true: histogram(truths), false: histogram(falses) }
  }
}

function perNodeSummary (counters: readonly NodeCounters[], meanRecordBytes: number): PerNodeSummary {
  const messages = counters.map((c) => c.gossipAccepted + c.gossipIgnored + c.gossipRejected)
  return {
    messagesMean: round(mean(messages), 1),
    messagesMax: Math.max(0, ...messages),
    payloadBytesMean: Math.round(mean(messages) * meanRecordBytes),
    verificationsMean: round(mean(counters.map((c) => c.verifications)), 1),
    cpuMsMean: round(mean(counters.map((c) => c.cpuMs)), 1)
  }
}
