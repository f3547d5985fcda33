import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findings, groupsBySybils, spreadOf } from '../../src/results/results-findings.js'
import { plotFiles, readResultsFile, reportHtml, type RunResult, type SimResults } from '../../src/index.js'
import { WORKSPACE } from '../../../node/test/fixtures/build-dist.js'

/*
 * The report from results files: an older file as it was written (one seed, the three-point sweep of
 * sybil-ring, docs/simulation/), and the same runs as if played with three seeds (each run repeated
 * with a `seed` and its AUC shifted by a known amount), as the model engine's `--seeds N` writes them.
 */

const sybilRing = async (): Promise<SimResults> => await readResultsFile(join(WORKSPACE, 'docs/simulation/sybil-ring/results.json'))

/** Each run three times, seeds 1–3, AUC shifted by −0.05, 0, +0.05 (clamped to 0–1). */
function withSeeds (results: SimResults): SimResults {
  const runs = results.runs.flatMap((run) => [1, 2, 3].map((seed): RunResult => ({
    ...run,
    seed,
    metrics: { ...run.metrics, trust: run.metrics.trust.map((t) => ({ ...t, auc: t.auc === null ? null : Math.min(1, Math.max(0, t.auc + (seed - 2) * 0.05)) })) }
  }) as RunResult))
  return { ...results, runs }
}

describe('findings in words', () => {
  it('says which policy held against the Sybil ring, with the figures of an older one-seed file', async () => {
    const text = findings(await sybilRing())
    expect(text).toMatch(/^Against a ring of 10 Sybils \(20% of 50 nodes\), the default policy isnad-v0\.1 fell to chance, ranking true against false memories with AUC 0\.54 \(a coin: 0\.5\) and rating 64% of false memories Attested or better; isnad-reputation barely beat chance, ranking true above false memories with AUC 0\.67/)
    expect(text).toContain("As the Sybils grew from 0 to 20 (0%–33% of the nodes), isnad-v0.1's AUC went from 0.54 at 10 to 0.44 at 20, no longer holding (AUC below 0.9) from 10 Sybils (20%), below chance from 20 Sybils (33%); isnad-reputation's AUC went from 0.67 at 10 to 0.80 at 20, no longer holding (AUC below 0.9) from 10 Sybils (20%).")
    // A file from before the baseline: no sentence about what the checks bought.
    expect(text).not.toContain('Without the witness checks')
    expect(text).toContain('Played on real nodes (processes runner) with 1 seed (2)')
  })

  it('gives means and 95% confidence intervals over seeds, and follows the file\'s default policy and engine', async () => {
    const results = { ...withSeeds(await sybilRing()), defaultPolicy: 'isnad-reputation', engine: 'model' as const }
    const group = groupsBySybils(results).find((g) => g.sybils === 10)!
    expect(group.runs).toHaveLength(3)
    const auc = spreadOf(group, 'isnad-v0.1', 'auc')!
    expect(auc.n).toBe(3)
    expect(auc.mean).toBeCloseTo(0.5404, 4)
    expect(auc.max - auc.min).toBeCloseTo(0.1, 6)
    // Student's t with 2 degrees of freedom: 0.5404 ± 4.3027 · 0.05 / √3.
    expect(auc.ci95?.low).toBeCloseTo(0.5404 - 0.1242, 3)
    expect(auc.ci95?.high).toBeCloseTo(0.5404 + 0.1242, 3)
    const text = findings(results)
    expect(text).toMatch(/^Against a ring of 10 Sybils \(20% of 50 nodes\), the default policy isnad-reputation barely beat chance, ranking true above false memories with AUC 0\.67 \(95% CI 0\.55–0\.79, 3 seeds\)/)
    expect(text).toContain('Played on the model engine with 3 seeds (1, 2, 3)')
  })
})

describe('report.html and the plot files', () => {
  it('renders an older file: static SVG, whole-number Sybil axes, no script, nothing fetched', async () => {
    const results = await sybilRing()
    const html = await reportHtml(results)
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/)
    expect(html).toContain('<p class="findings">Against a ring of 10 Sybils')
    const files = await plotFiles(results)
    expect([...files.keys()].sort()).toEqual(['latency-cdf.svg', 'policy-comparison.svg', 'sybil-auc.svg', 'sybil-curve.svg', 'sybil-false-attested.svg', 'trust-isnad-reputation.svg', 'trust-isnad-v0.1.svg'])
    const xAxis = /aria-label="X-axis[^"]*"[\s\S]*?role-axis-label"[^>]*>([\s\S]*?)<\/g>/.exec(files.get('sybil-auc.svg')!)?.[1] ?? ''
    const ticks = [...xAxis.matchAll(/>([^<]+)<\/text>/g)].map((m) => m[1])
    expect(ticks.length).toBeGreaterThan(1)
    for (const tick of ticks) expect(tick).toMatch(/^\d+$/)
    // One seed: no range bars.
    expect(files.get('sybil-auc.svg')).not.toContain('mark-rule role-mark')
  })

  it('draws the 95% confidence intervals as bars when there are several seeds, and the same page from the same file', async () => {
    const results = withSeeds(await sybilRing())
    const files = await plotFiles(results)
    expect(files.get('sybil-auc.svg')).toContain('mark-rule role-mark')
    expect(files.get('policy-comparison.svg')).toContain('mark-rule role-mark')
    const html = await reportHtml(results)
    expect(html).toContain('0.540 (95% CI 0.416–0.665; 0.490–0.590)')
    expect(await reportHtml(results)).toBe(html)
  })

  it('renders a one-run file without a sweep section', async () => {
    const results = await readResultsFile(join(WORKSPACE, 'docs/simulation/podman-small/results.json'))
    const html = await reportHtml(results)
    expect(html).not.toContain('Sybil sweep')
    expect(html).toContain('data-plot="policy-comparison"')
    expect(JSON.parse(await readFile(join(WORKSPACE, 'docs/simulation/podman-small/results.json'), 'utf8')).runs).toHaveLength(1)
  })
})
