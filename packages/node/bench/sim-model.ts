import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILTIN_SCENARIO_DIR } from 'isnad-sim'
import type { Figure } from './report.js'
import type { ModelBenchLine } from './sim-model-worker.js'

/*
 * Figure 14: the simulation's model engine at research scale, each simulation alone in a
 * fresh process (sim-model-worker.ts) so that its peak RSS is its own. Baseline, in the same
 * process right after: node:crypto Ed25519 sign + verify of as many records as the simulation
 * signed, the floor of any simulation over real signed records; the ratio is what the modelled
 * network, the plan, verification at the observers and the trust code add on top of it.
 *
 * By default the 1,000-agent Sybil sweep (5 Sybil counts × 3 seeds, target < 2 min); with
 * `--model-10k` also the 10,000-agent run (target < 5 min and < 4 GiB); --quick plays one 1,000-agent run.
 */

export interface SimModelBenchOptions {
  quick: boolean
  /** Also the 10,000-agent run (about a minute and 0.7 GB on a quiet 2-vCPU machine). */
  tenThousand: boolean
  progress: (text: string) => void
}

const SECTION = '14. simulation, model engine (virtual time, real records and trust code; one fresh process per simulation)'
const SWEEP_TARGET_SECONDS = 120
const TEN_K_TARGET_SECONDS = 300
const TEN_K_TARGET_MB = 4096

async function measure (scenario: string, seeds: number, progress: (text: string) => void): Promise<ModelBenchLine> {
  const worker = fileURLToPath(new URL('./sim-model-worker.js', import.meta.url))
  const file = join(BUILTIN_SCENARIO_DIR, 'scale', `${scenario}.yaml`)
  progress(`14. ${scenario} × ${seeds} seed${seeds === 1 ? '' : 's'} on the model engine`)
  return await new Promise((resolve, reject) => {
    execFile(process.execPath, [worker, file, String(seeds)], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error !== null) { reject(error); return }
      try { resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ModelBenchLine) } catch (cause) { reject(new Error(`sim-model-worker printed no result: ${stdout.slice(0, 200)}`, { cause })) }
    })
  })
}

function figureOf (name: string, line: ModelBenchLine, target: Figure['target']): Figure {
  return {
    section: SECTION,
    name,
    value: Math.round(line.wallSeconds * 10) / 10,
    unit: 's',
    baseline: { name: `node:crypto sign + verify of its ${line.records.toLocaleString('en-US')} records`, value: Math.round(line.baselineSeconds * 100) / 100, unit: 's' },
    ratio: line.wallSeconds / line.baselineSeconds,
    ...(target === undefined ? {} : { target }),
    detail: {
      peakRssMB: Math.round(line.peakRssMB),
      cpuSeconds: Math.round(line.cpuSeconds * 10) / 10,
      runs: line.runs,
      agents: line.agents,
      memories: line.memories,
      minDelivery: line.minDelivery
    }
  }
}

export async function benchSimModel (options: SimModelBenchOptions): Promise<Figure[]> {
  if (options.quick) {
    const one = await measure('model-1k', 1, options.progress)
    return [figureOf('one 1,000-agent run (model-1k, 30 simulated minutes)', one, undefined)]
  }
  const sweep = await measure('sybil-sweep-1k', 3, options.progress)
  const figures = [figureOf('Sybil sweep, 1,000 agents: 5 Sybil counts (0–40%) × 3 seeds', sweep, { text: `< ${SWEEP_TARGET_SECONDS} s`, met: sweep.wallSeconds < SWEEP_TARGET_SECONDS })]
  if (options.tenThousand) {
    const big = await measure('model-10k', 1, options.progress)
    figures.push(figureOf('10,000 agents, 30% adversarial, 30 simulated minutes, 10 observers', big, {
      text: `< ${TEN_K_TARGET_SECONDS} s and < 4 GiB (peak ${Math.round(big.peakRssMB)} MB)`,
      met: big.wallSeconds < TEN_K_TARGET_SECONDS && big.peakRssMB < TEN_K_TARGET_MB
    }))
  }
  return figures
}
