import type { PolicyAccuracy, RunResult } from '../driver/index.js'
import type { Plan } from '../scenario/index.js'

/*
 * Whether the real-node engine and the model engine agree on one run (docs/simulation.md, "The
 * engines agree"): both must have delivered everything the plan published (else the observers saw
 * different records and a difference says nothing about the model), then every policy's trust
 * metrics must match within the tolerance. Pure: bench/sim-agree.ts runs the engines and prints
 * the table this module formats.
 */

/** Every trust metric compared: AUC, the level shares and the mean trusts. */
export const AGREEMENT_METRICS = [
  'auc', 'falseAnchoredShare', 'falseAttestedShare', 'trueUnverifiedShare', 'meanTrustTrue', 'meanTrustFalse', 'sybilMeanTrust', 'sybilAttestedShare'
] as const satisfies ReadonlyArray<keyof PolicyAccuracy>

/** @default 0.01 — the bound on |real − model| for every metric of every policy. */
export const AGREEMENT_TOLERANCE = 0.01

export type AgreementMetric = (typeof AGREEMENT_METRICS)[number]

/**
 * The plan's memories whose author is online at their minute: the plan lets churn take authors away,
 * and neither engine publishes a memory whose author has left (driver.ts, model/engine.ts), so those
 * are no shortfall of delivery.
 */
export function publishableMemories (plan: Pick<Plan, 'memories' | 'events'>): number {
  const changes = plan.events
    .filter((e): e is Extract<Plan['events'][number], { kind: 'leave' | 'join' }> => e.kind === 'leave' || e.kind === 'join')
    .sort((a, b) => a.at - b.at)
  return plan.memories.filter((m) => {
    let online = true
    // A memory at an event's very instant is played first (the model's queue: memories are queued before events).
    for (const e of changes) if (e.at < m.at && e.nodes.includes(m.author)) online = e.kind === 'join'
    return online
  }).length
}

/**
 * Why a run's delivery is not full, in words; empty when every publishable memory (`publishable`,
 * default all planned) was published and everything arrived.
 */
export function deliveryGaps (run: RunResult, publishable = run.metrics.memories.planned): string[] {
  const m = run.metrics
  const gaps: string[] = []
  if (m.memories.published < publishable) gaps.push(`${publishable - m.memories.published} of ${publishable} publishable memories not published`)
  if (m.delivery.memoryRatio !== null && m.delivery.memoryRatio < 1) gaps.push(`memory delivery ${m.delivery.memoryRatio}`)
  if (m.delivery.attestationRatio !== null && m.delivery.attestationRatio < 1) gaps.push(`attestation delivery ${m.delivery.attestationRatio}`)
  if (m.witness.missedAnswers > 0) gaps.push(`${m.witness.missedAnswers} answers missed`)
  return gaps
}

export interface MetricDifference {
  policy: string
  metric: AgreementMetric
  real: number | null
  model: number | null
  /** |real − model|; Infinity when one is null and the other is not. */
  difference: number
}

export interface Agreement {
  /** Largest difference over every policy and metric (0 when all are equal). */
  maxDifference: number
  /** The metric with the largest difference, if any differs. */
  worst: MetricDifference | null
  /** Policies whose trust histograms (10 bins, true and false memories) differ. */
  histogramsDiffer: string[]
  /** Policies present in one run's results and not the other's. */
  missingPolicies: string[]
  /** Differences above the tolerance. */
  beyond: MetricDifference[]
  /** The memories (planned, published, true, false) differ: the engines did not play the same plan. */
  memoriesDiffer: boolean
  agree: boolean
}

function differenceOf (real: number | null, model: number | null): number {
  if (real === null || model === null) return real === model ? 0 : Number.POSITIVE_INFINITY
  return Math.abs(real - model)
}

function sameHistogram (a: PolicyAccuracy['histogram'], b: PolicyAccuracy['histogram']): boolean {
  const same = (x: readonly number[], y: readonly number[]): boolean => x.length === y.length && x.every((v, i) => v === y[i])
  return same(a.true, b.true) && same(a.false, b.false)
}

/** Compares the model engine's run with the real engine's run of the same scenario and seed. */
export function compareRuns (real: RunResult, model: RunResult, tolerance = AGREEMENT_TOLERANCE): Agreement {
  const differences: MetricDifference[] = []
  const histogramsDiffer: string[] = []
  const modelByPolicy = new Map(model.metrics.trust.map((t) => [t.policy, t]))
  const realPolicies = new Set(real.metrics.trust.map((t) => t.policy))
  const missingPolicies = [
    ...real.metrics.trust.filter((t) => !modelByPolicy.has(t.policy)).map((t) => t.policy),
    ...model.metrics.trust.filter((t) => !realPolicies.has(t.policy)).map((t) => t.policy)
  ]
  for (const r of real.metrics.trust) {
    const m = modelByPolicy.get(r.policy)
    if (m === undefined) continue
    for (const metric of AGREEMENT_METRICS) differences.push({ policy: r.policy, metric, real: r[metric], model: m[metric], difference: differenceOf(r[metric], m[metric]) })
    if (!sameHistogram(r.histogram, m.histogram)) histogramsDiffer.push(r.policy)
  }
  const worst = differences.reduce<MetricDifference | null>((w, d) => d.difference > 0 && (w === null || d.difference > w.difference) ? d : w, null)
  const beyond = differences.filter((d) => d.difference > tolerance)
  const a = real.metrics.memories
  const b = model.metrics.memories
  const memoriesDiffer = a.planned !== b.planned || a.published !== b.published || a.true !== b.true || a.false !== b.false
  return {
    maxDifference: worst?.difference ?? 0,
    worst,
    histogramsDiffer,
    missingPolicies,
    beyond,
    memoriesDiffer,
    agree: beyond.length === 0 && missingPolicies.length === 0 && !memoriesDiffer
  }
}
