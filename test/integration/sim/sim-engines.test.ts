import { describe, expect, it } from 'vitest'
import { LocalPool, loadScenario, parseScenario, runModelScenario, runScenario, type SimResults } from '../../../src/sim/index.js'
import { DEFAULT_TRUST_POLICY, TRUST_POLICIES } from '../../../src/trust/index.js'

/*
 * The two engines agree (docs/simulation.md, "The model engine"): a scenario played on real daemons
 * (LevelDB, ledger, HTTP API, libp2p on 127.0.0.1) and on the model engine, with full delivery,
 * gives the same trust metrics: the same records reach the observers, the same trust code scores
 * them. The scenario is the built-in `small` at a shorter time scale.
 */

const TOLERANCE = 0.01
const METRICS = ['auc', 'falseAnchoredShare', 'falseAttestedShare', 'trueUnverifiedShare', 'meanTrustTrue', 'meanTrustFalse', 'sybilMeanTrust', 'sybilAttestedShare'] as const

async function scenario (): Promise<ReturnType<typeof parseScenario>> {
  const small = await loadScenario('small')
  return parseScenario({ ...small, name: 'engines-small', timeScale: { realSecondsPerMinute: 12 } })
}

describe('the real-node and model engines', () => {
  let real: SimResults
  let model: SimResults

  it('play the same plan: every memory published, full delivery on both', async () => {
    const s = await scenario()
    real = await runScenario(s, { runner: 'in-process', createPool: async (count) => await LocalPool.start({ count }), progress: () => {} })
    model = await runModelScenario(s, { progress: () => {} })
    expect(real.engine).toBe('nodes')
    expect(model.engine).toBe('model')
    expect(model.runner).toBe('model')
    for (const results of [real, model]) {
      const m = results.runs[0]!.metrics
      expect(results.defaultPolicy).toBe(DEFAULT_TRUST_POLICY)
      expect(m.memories.published).toBe(m.memories.planned)
      expect(m.delivery.memoryRatio, results.engine).toBe(1)
      expect(m.delivery.attestationRatio, results.engine).toBe(1)
      expect(m.witness.missedAnswers, results.engine).toBe(0)
    }
    expect(model.runs[0]!.metrics.memories).toEqual(real.runs[0]!.metrics.memories)
  }, 240_000)

  it('measure the same trust under every policy, within 0.01', () => {
    const realTrust = real.runs[0]!.metrics.trust
    const modelTrust = model.runs[0]!.metrics.trust
    expect(modelTrust.map((t) => t.policy)).toEqual(Object.keys(TRUST_POLICIES))
    expect(realTrust.map((t) => t.policy)).toEqual(Object.keys(TRUST_POLICIES))
    for (const [k, r] of realTrust.entries()) {
      const m = modelTrust[k]!
      for (const key of METRICS) {
        if (r[key] === null) { expect(m[key], `${r.policy} ${key}`).toBeNull(); continue }
        expect(Math.abs((m[key] as number) - (r[key] as number)), `${r.policy} ${key}: real ${r[key]}, model ${m[key]}`).toBeLessThanOrEqual(TOLERANCE)
      }
      expect(m.histogram, r.policy).toEqual(r.histogram)
    }
  })
})
