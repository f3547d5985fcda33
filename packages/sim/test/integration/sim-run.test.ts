import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { LocalPool, parseScenario, readResultsFile, reportHtml, runScenario, writeResults, type SimResults } from '../../src/index.js'
import { TRUST_POLICIES } from 'isnad/engine'
import { launchChromium } from '../../../node/test/fixtures/browser.js'

/*
 * The in-process runner end to end on real daemons (LevelDB, ledger, HTTP API, libp2p on
 * 127.0.0.1): a 10-node scenario with Sybils and a lazy witness, run twice with one seed. The trust
 * metrics must be equal (the plan fixes every choice; the network must deliver everything), and the
 * HTML report must draw its plots in a real browser. The first run also sweeps the Sybil count (0
 * and 4 besides the scenario's 2), so the report has sweep plots to draw.
 */


const scenario = parseScenario({
  name: 'test-small',
  seed: 11,
  durationMinutes: 0.5,
  timeScale: { realSecondsPerMinute: 12 },
  nodes: { 'honest-author': 2, 'honest-witness': 5, 'lazy-witness': 1, sybil: 2 },
  requests: { memoriesPerAuthorPerMinute: 6, witnessesPerMemory: 3, pattern: 'uniform' },
  metrics: { observers: 2, trustRoots: 3, sybilSweep: [] }
})

async function run (sweep: number[] = [], progress: (line: string) => void = () => {}, checks?: boolean): Promise<SimResults> {
  const swept = { ...scenario, metrics: { ...scenario.metrics, sybilSweep: sweep } }
  return await runScenario(swept, {
    runner: 'in-process',
    createPool: async (count, { privateCheckers }) => await LocalPool.start({ count, ...(privateCheckers === undefined ? {} : { privateCheckers }) }),
    progress,
    ...(checks === undefined ? {} : { checks })
  })
}

const dirs: string[] = []
afterAll(async () => { await Promise.all(dirs.map(async (d) => { await rm(d, { recursive: true, force: true }) })) })

describe('isnad sim, in one process', () => {
  let first: SimResults
  const progress: string[] = []

  it('plays a scenario on real nodes and measures delivery and trust under every registered policy', async () => {
    first = await run([0, 4], (line) => { progress.push(line) })
    expect(first.runs.map((r) => r.sybils)).toEqual([2, 0, 4])
    // Progress names the run, what it varies and, once playing, how much is done and the time left.
    expect(progress.some((line) => /^run 1 of 3 · sybil 2 \(20%\) · seed 11 · /.test(line))).toBe(true)
    expect(progress.some((line) => /^run 3 of 3 · sybil 4 \(33%\) · seed 11 · .*\d+% done, ETA \d+(s|m\d\ds)$/.test(line))).toBe(true)
    const [main] = first.runs
    expect(main?.nodes).toBe(10)
    const m = main!.metrics
    expect(m.memories.published).toBe(m.memories.planned)
    expect(m.memories.false).toBeGreaterThan(0)
    expect(m.delivery.memoryRatio).toBe(1)
    expect(m.delivery.attestationRatio).toBe(1)
    expect(m.delivery.latencyMs.samples).toBeGreaterThan(0)
    expect(m.witness.roundTripMs.samples).toBeGreaterThan(0)
    expect(m.trust.map((t) => t.policy)).toEqual(Object.keys(TRUST_POLICIES))
    for (const t of m.trust) {
      expect(t.auc, t.policy).not.toBeNull()
      expect(t.histogram.true.reduce((a, b) => a + b, 0) + t.histogram.false.reduce((a, b) => a + b, 0)).toBe(2 * m.memories.published)
    }
    expect(m.perNode?.messagesMean).toBeGreaterThan(0)
    // On defaults the nodes run the witness checks: the results name the draw's settings and the load.
    expect(first.checks).toMatchObject({ size: 5, privateChecks: 1, perAuthorPerHour: 30, perMinute: 60 })
    expect(m.witness.requestsPerMemory).toBeGreaterThanOrEqual(1)
    expect(m.witness.attestationsPerMemory).toBeGreaterThan(0)
  }, 180_000)

  // Without the witness checks, so that nothing but the plan decides who answers.
  it('gives the same trust metrics when run again with the same seed (checks off)', async () => {
    const [a, b] = [await run([], () => {}, false), await run([], () => {}, false)]
    expect(a.checks).toBeNull()
    expect(b.runs[0]?.metrics.trust).toEqual(a.runs[0]?.metrics.trust)
    expect(b.runs[0]?.metrics.memories).toEqual(first.runs[0]?.metrics.memories)
  }, 240_000)

  it('writes results.json, a CSV and a report whose plots a browser draws', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-sim-report-'))
    dirs.push(dir)
    const paths = await writeResults(first, dir)
    expect(JSON.parse(await readFile(paths.json, 'utf8')).format).toBe('isnad-sim-results/1')
    const csv = (await readFile(paths.csv, 'utf8')).trim().split('\n')
    expect(csv).toHaveLength(1 + 3 * Object.keys(TRUST_POLICIES).length)
    const html = await readFile(paths.html, 'utf8')
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/)
    // `isnad sim report` renders the same page from the results file alone.
    expect(await reportHtml(await readResultsFile(paths.json))).toBe(html)
    expect(await readFile(join(dir, 'plots', 'sybil-auc.svg'), 'utf8')).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\n$/)
    // The first paragraph says what was found, with figures.
    expect(html).toMatch(/<p class="findings">Against a ring of 2 Sybils \(20% of 10 nodes\) and 1 lazy witness, the default policy isnad-reputation [^<]*AUC \d\.\d\d[^<]*As the Sybils grew from 0 to 4/)

    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      await page.goto(pathToFileURL(paths.html).href)
      // Drawn = laid out with a size by the browser's SVG engine, not merely present in the markup.
      const plots = await page.locator('figure.plot').all()
      const kinds = await Promise.all(plots.map(async (p) => await p.getAttribute('data-plot')))
      const cdf = await page.locator('[data-plot="latency-cdf"] .mark-line path').first().boundingBox()
      const heights = async (selector: string): Promise<number> => (await Promise.all((await page.locator(selector).all()).map(async (b) => (await b.boundingBox())?.height ?? 0))).filter((h) => h > 0).length
      // The x axis of a sweep: whole Sybil counts only.
      const sweepTicks = await page.locator('[data-plot="sybil-auc"] [aria-label^="X-axis"] .role-axis-label text').allTextContents()
      const drawn = {
        kinds,
        cdfWidth: cdf?.width ?? 0,
        trustBars: await heights('[data-plot="trust-distribution"] .mark-rect path'),
        policyBars: await heights('[data-plot="policy-comparison"] .mark-rect path'),
        sweepPoints: await page.locator('[data-plot="sybil-auc"] g.mark-symbol.role-mark path').count(),
        legend: await page.locator('[data-plot="sybil-auc"] .role-legend-label text').allTextContents()
      }
      expect(drawn.kinds).toEqual(expect.arrayContaining(['policy-comparison', 'sybil-auc', 'sybil-curve', 'sybil-false-attested', 'latency-cdf', 'trust-distribution']))
      expect(drawn.cdfWidth).toBeGreaterThan(100)
      expect(drawn.trustBars).toBeGreaterThan(0)
      expect(drawn.policyBars).toBeGreaterThan(0)
      // One point per Sybil count and policy that had true and false memories to rank.
      expect(drawn.sweepPoints).toBe(first.runs.flatMap((r) => r.metrics.trust).filter((t) => t.auc !== null).length)
      expect(drawn.sweepPoints).toBeGreaterThanOrEqual(2 * Object.keys(TRUST_POLICIES).length)
      expect(drawn.legend).toEqual(expect.arrayContaining(['isnad-reputation (default)', 'isnad-v0.1']))
      expect(sweepTicks.length).toBeGreaterThan(1)
      expect(sweepTicks.every((t) => /^\d+$/.test(t)), sweepTicks.join(' ')).toBe(true)
    } finally {
      await browser.close()
    }
  }, 60_000)
})
