import { describe, expect, it } from 'vitest'
import { createPlan, loadScenario, parseScenario, runModelScenario, spreadOf, sweepOf, type SimResults } from '../../../src/index.js'
import { arrivalAt, playModel, runModelOnce } from '../../../src/model/index.js'
import { DEFAULT_TRUST_POLICY, TRUST_POLICIES } from 'isnad/engine'

/*
 * The model engine end to end on small scenarios: deterministic by seed (the same results.json trust
 * metrics twice), every planned memory published and witnessed with full delivery on a connected
 * network, churn and partitions that delay and then repair delivery, and the results document's
 * engine, default policy, seeds and spread.
 */

const quiet = (): void => {}

const SMALL = parseScenario({
  name: 'model-unit',
  seed: 21,
  durationMinutes: 2,
  nodes: { 'honest-author': 4, 'honest-witness': 10, 'lazy-witness': 2, sybil: 4 },
  requests: { memoriesPerAuthorPerMinute: 2, witnessesPerMemory: 3 },
  network: { latencyMs: 20, jitterMs: 5, lossPercent: 1 },
  metrics: { observers: 3, trustRoots: 3, sybilSweep: [0, 8] }
})

function trustOf (results: SimResults): unknown {
  return results.runs.map((r) => ({ seed: r.seed, sybils: r.sybils, trust: r.metrics.trust, memories: r.metrics.memories, delivery: r.metrics.delivery, witness: r.metrics.witness }))
}

describe('the model engine', () => {
  it('gives identical results.json metrics for the same seed, and different ones for another', async () => {
    const first = await runModelScenario(SMALL, { progress: quiet })
    const second = await runModelScenario(SMALL, { progress: quiet })
    expect(trustOf(second)).toEqual(trustOf(first))
    expect(second.spread).toEqual(first.spread)
    const other = await runModelScenario({ ...SMALL, seed: 22 }, { progress: quiet })
    expect(trustOf(other)).not.toEqual(trustOf(first))
  })

  it('publishes and witnesses every planned memory with full delivery on a connected network', () => {
    const run = runModelOnce(SMALL, quiet)
    const m = run.metrics
    expect(m.memories.published).toBe(m.memories.planned)
    expect(m.memories.planned).toBe(createPlan(SMALL).memories.length)
    expect(m.delivery.memoryRatio).toBe(1)
    expect(m.delivery.attestationRatio).toBe(1)
    expect(m.witness.missedAnswers).toBe(0)
    // One-way 20 ± 5 ms per hop: no attestation arrives sooner than one hop, and loss only delays.
    expect(m.delivery.latencyMs.p50).toBeGreaterThanOrEqual(15)
    expect(m.witness.roundTripMs.samples).toBeGreaterThan(0)
    expect(m.trust.map((t) => t.policy)).toEqual(Object.keys(TRUST_POLICIES))
    for (const t of m.trust) {
      expect(t.histogram.true.reduce((a, b) => a + b, 0) + t.histogram.false.reduce((a, b) => a + b, 0)).toBe(3 * m.memories.published)
    }
  })

  it('cuts delivery across a partition and repairs it by sync when the partition heals', async () => {
    const scenario = await loadScenario('churn-partition')
    const plan = createPlan(scenario)
    const run = playModel(scenario, plan, quiet)
    const partition = plan.events.find((e) => e.kind === 'partition')
    const heal = plan.events.find((e) => e.kind === 'heal')
    if (partition?.kind !== 'partition' || heal === undefined) throw new Error('churn-partition has a partition and a heal')
    const side = new Set(partition.side)
    // A memory published during the partition reaches the far side only after the heal.
    const during = plan.memories.find((m) => m.at > partition.at && m.at < heal.at && !Number.isNaN(run.publishedAt[m.serial] as number))
    expect(during).toBeDefined()
    let across = 0
    run.tracked.forEach((node, j) => {
      if (side.has(node) === side.has(during!.author) || run.onlineAtEnd[node] !== 1) return
      const at = arrivalAt(run, during!.serial, j)
      if (Number.isNaN(at)) return
      across++
      expect(at).toBeGreaterThanOrEqual(heal.at * 60_000)
    })
    expect(across).toBeGreaterThan(0)
  })

  it('names the engine and the default policy, and spreads each metric over the seeds', async () => {
    const results = await runModelScenario(SMALL, { progress: quiet, seeds: 3 })
    expect(results.engine).toBe('model')
    expect(results.defaultPolicy).toBe(DEFAULT_TRUST_POLICY)
    expect(results.seeds).toEqual([21, 22, 23])
    expect(results.runs.map((r) => [r.seed, r.sybils])).toEqual([[21, 4], [21, 0], [21, 8], [22, 4], [22, 0], [22, 8], [23, 4], [23, 0], [23, 8]])
    expect(results.spread?.map((s) => [s.sybils, s.policy])).toEqual([0, 4, 8].flatMap((n) => Object.keys(TRUST_POLICIES).map((p) => [n, p])))
    const point = results.spread?.find((s) => s.sybils === 8 && s.policy === DEFAULT_TRUST_POLICY)
    expect(point?.isDefault).toBe(true)
    expect(point?.nodes).toBe(24)
    expect(point?.sybilShare).toBe(0.3333)
    const aucs = results.runs.filter((r) => r.sybils === 8).map((r) => r.metrics.trust.find((t) => t.policy === DEFAULT_TRUST_POLICY)?.auc ?? null)
    expect(point?.metrics.auc.values).toEqual(aucs)
  })
})

describe('sweeps and spreads', () => {
  it('runs each seed with its Sybil sweep, the scenario as written first', () => {
    expect(sweepOf(SMALL, 2).map((s) => [s.seed, s.nodes.sybil])).toEqual([[21, 4], [21, 0], [21, 8], [22, 4], [22, 0], [22, 8]])
    expect(() => sweepOf(SMALL, 0)).toThrow(expect.objectContaining({ code: 'USAGE' }))
  })

  it('computes min, median, max, mean and sample standard deviation, skipping missing values', () => {
    // 95 % CI: 0.7 ± t(0.975, 2) · 0.2 / √3 = 0.7 ± 0.4968, cut to [0, 1].
    expect(spreadOf([0.5, null, 0.7, 0.9])).toEqual({ values: [0.5, null, 0.7, 0.9], n: 3, min: 0.5, median: 0.7, max: 0.9, mean: 0.7, sd: 0.2, ci95: { low: 0.2032, high: 1 } })
    expect(spreadOf([0.25])).toEqual({ values: [0.25], n: 1, min: 0.25, median: 0.25, max: 0.25, mean: 0.25, sd: null, ci95: null })
    expect(spreadOf([null])).toEqual({ values: [null], n: 0, min: null, median: null, max: null, mean: null, sd: null, ci95: null })
  })
})
