import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  AGREEMENT_METRICS, agreementSummary, agreementTable, compareRuns, createPlan, deliveryGaps, loadScenario, publishableMemories, readResultsFile,
  type AgreementRow, type PolicyAccuracy, type RunResult
} from '../../src/index.js'
import { WORKSPACE } from '../../../node/test/fixtures/build-dist.js'

/*
 * The engines-agree comparison (src/sim/results/agreement.ts) and its markdown table (agreement-table.ts),
 * on the checked-in sybil-ring results (real nodes, 10 Sybils): the run against itself, against
 * copies with known differences, and with incomplete delivery.
 */

async function realRun (): Promise<RunResult> {
  const results = await readResultsFile(join(WORKSPACE, 'docs/simulation/sybil-ring/results.json'))
  const run = results.runs[0]!
  // That run fell short of full delivery (a loaded machine); the comparison's fixture has it full.
  return { ...run, seed: 2, metrics: { ...run.metrics, memories: { ...run.metrics.memories, published: run.metrics.memories.planned }, delivery: { ...run.metrics.delivery, memoryRatio: 1, attestationRatio: 1 }, witness: { ...run.metrics.witness, missedAnswers: 0 } } }
}

function shifted (run: RunResult, policy: string, changes: Partial<PolicyAccuracy>): RunResult {
  return { ...run, metrics: { ...run.metrics, trust: run.metrics.trust.map((t) => t.policy === policy ? { ...t, ...changes } : t) } }
}

function row (real: RunResult, model: RunResult): AgreementRow {
  return { scenario: 'sybil-ring', secondsPerMinute: 20, scenarioSecondsPerMinute: 20, publishable: real.metrics.memories.planned, real, model: { ...model, timings: { ...model.timings, totalSeconds: 0.3 } }, retries: [] }
}

describe('compareRuns', () => {
  it('finds no difference between a run and itself', async () => {
    const run = await realRun()
    const a = compareRuns(run, run)
    expect(a).toMatchObject({ maxDifference: 0, worst: null, beyond: [], histogramsDiffer: [], missingPolicies: [], memoriesDiffer: false, agree: true })
  })

  it('names the largest difference and refuses one above 0.01, for every compared metric', async () => {
    const run = await realRun()
    for (const metric of AGREEMENT_METRICS) {
      const base = run.metrics.trust[1]![metric] ?? 0.5
      const within = compareRuns(run, shifted(run, 'isnad-reputation', { [metric]: base + 0.009 }))
      expect(within.agree, `${metric} +0.009`).toBe(true)
      expect(within.maxDifference, metric).toBeCloseTo(0.009, 6)
      expect(within.worst, metric).toMatchObject({ policy: 'isnad-reputation', metric })
      const beyond = compareRuns(run, shifted(run, 'isnad-reputation', { [metric]: base + 0.02 }))
      expect(beyond.agree, `${metric} +0.02`).toBe(false)
      expect(beyond.beyond.map((d) => `${d.policy} ${d.metric}`), metric).toEqual([`isnad-reputation ${metric}`])
    }
  })

  it('treats null against a number as a difference, and notes different histograms, memories and policies', async () => {
    const run = await realRun()
    expect(compareRuns(run, shifted(run, 'isnad-v0.1', { auc: null })).maxDifference).toBe(Number.POSITIVE_INFINITY)
    const histogram = compareRuns(run, shifted(run, 'isnad-v0.1', { histogram: { true: [...run.metrics.trust[0]!.histogram.true].reverse(), false: run.metrics.trust[0]!.histogram.false } }))
    expect(histogram).toMatchObject({ histogramsDiffer: ['isnad-v0.1'], agree: true })
    const fewer = { ...run, metrics: { ...run.metrics, memories: { ...run.metrics.memories, false: run.metrics.memories.false - 1 } } }
    expect(compareRuns(run, fewer)).toMatchObject({ memoriesDiffer: true, agree: false })
    const onePolicy = { ...run, metrics: { ...run.metrics, trust: run.metrics.trust.slice(0, 1) } }
    expect(compareRuns(run, onePolicy)).toMatchObject({ missingPolicies: ['isnad-reputation'], agree: false })
  })
})

describe('deliveryGaps', () => {
  it('is empty with full delivery and names each shortfall', async () => {
    const run = await realRun()
    expect(deliveryGaps(run)).toEqual([])
    const m = run.metrics
    const short = { ...run, metrics: { ...m, memories: { ...m.memories, published: m.memories.planned - 2 }, delivery: { ...m.delivery, memoryRatio: 0.997, attestationRatio: 0.965 }, witness: { ...m.witness, missedAnswers: 3 } } }
    expect(deliveryGaps(short)).toEqual([`2 of ${m.memories.planned} publishable memories not published`, 'memory delivery 0.997', 'attestation delivery 0.965', '3 answers missed'])
    expect(deliveryGaps(short, m.memories.planned - 2)).toEqual(['memory delivery 0.997', 'attestation delivery 0.965', '3 answers missed'])
  })
})

describe('publishableMemories', () => {
  it('leaves out the memories planned while their author is away (churn-partition: author 7 leaves at minute 0.5, back at 2)', async () => {
    const plan = createPlan(await loadScenario('churn-partition'))
    const leave = plan.events.find((e) => e.kind === 'leave')
    expect(leave?.kind === 'leave' ? leave.nodes : []).toContain(7)
    const away = plan.memories.filter((m) => m.author === 7 && m.at > 0.5 && m.at < 2)
    expect(away.length).toBeGreaterThan(0)
    expect(publishableMemories(plan)).toBe(plan.memories.length - away.length)
    const still = createPlan(await loadScenario('honest-baseline'))
    expect(publishableMemories(still)).toBe(still.memories.length)
  })
})

describe('agreementTable', () => {
  it('prints two rows per run with every policy\'s AUC and level shares, the difference and the wall time', async () => {
    const run = await realRun()
    const rows = [row(run, run), row(run, shifted(run, 'isnad-v0.1', { auc: 0.5604 }))]
    const table = agreementTable(rows).split('\n')
    expect(table[0]).toBe('| scenario | Sybils | nodes | engine | s / sim. min | delivery mem. / att. | isnad-v0.1: AUC · F≥Anc · F≥Att · T Unv | isnad-reputation: AUC · F≥Anc · F≥Att · T Unv | max \\|Δ\\| | messages / node / memory | wall s |')
    expect(table).toHaveLength(2 + 4)
    expect(table[2]).toBe(`| sybil-ring | 10 | 50 | nodes | 20 | 1 / 1 | 0.540 · 0.000 · 0.641 · 0.333 | ${policyCell(run, 1)} |  | ${messages(run)} | ${run.timings.totalSeconds.toFixed(1)} |`)
    expect(table[3]).toMatch(/^\| sybil-ring \| 10 \| 50 \| model \| 20 \| 1 \/ 1 \| .* \| 0\.0000 ✓ \| [\d.]+ \(\+0 %\) \| 0\.3 \|$/)
    expect(table[5]).toContain('| 0.560 · 0.000 · 0.641 · 0.333 |')
    expect(table[5]).toContain('| 0.0200 (isnad-v0.1 auc) ✗ |')
    expect(agreementSummary(rows)).toBe(`1 of 2 runs agree within 0.01 (2 compared with full delivery); largest difference 0.0200; wall time ${(2 * run.timings.totalSeconds).toFixed(0)} s on real nodes (retries included), 0.6 s on the model.`)
  })

  it('shows the difference of a run whose real delivery is incomplete without holding it to the tolerance, and the slower retries', async () => {
    const run = await realRun()
    const short = { ...run, metrics: { ...run.metrics, delivery: { ...run.metrics.delivery, attestationRatio: 0.98 } } }
    const slowed: AgreementRow = { ...row(short, run), secondsPerMinute: 40, retries: [{ secondsPerMinute: 20, gaps: ['attestation delivery 0.9'], wallSeconds: 100 }] }
    const table = agreementTable([slowed])
    expect(table).toContain('| 40, after 20 (attestation delivery 0.9) | 1 / 0.98 |')
    expect(table).toContain('| 0.0000 not held to the tolerance: real delivery incomplete (attestation delivery 0.98) |')
    expect(agreementSummary([slowed])).toMatch(/^0 of 1 runs agree within 0\.01 \(0 compared with full delivery\)/)
  })
})

function policyCell (run: RunResult, index: number): string {
  const t = run.metrics.trust[index]!
  return [t.auc, t.falseAnchoredShare, t.falseAttestedShare, t.trueUnverifiedShare].map((v) => v === null ? '—' : v.toFixed(3)).join(' · ')
}

/** Per-node messages per published memory as the table prints them (one decimal; — without counters). */
function messages (run: RunResult): string {
  const published = run.metrics.memories.published
  return run.metrics.perNode === null || published === 0 ? '—' : (run.metrics.perNode.messagesMean / published).toFixed(1)
}
