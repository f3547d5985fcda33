import { describe, expect, it } from 'vitest'
import { LocalPool, loadScenario, parseScenario, runModelScenario, runScenario, type RunScenarioOptions, type SimResults } from '../../src/index.js'
import { DEFAULT_TRUST_POLICY, TRUST_POLICIES } from 'isnad/engine'

/*
 * The two engines agree (docs/simulation.md, "The model engine"): a scenario played on real daemons
 * (LevelDB, ledger, HTTP API, libp2p on 127.0.0.1) and on the model engine, with full delivery,
 * gives the same trust metrics: the same records reach the observers, the same trust code scores
 * them. The scenario is the built-in `small` at a shorter time scale.
 *
 * Draw for draw only without the witness checks: with them (the default), every witness draws itself
 * by its own VRF, which the model samples instead of computing (src/sim/model/draw-sampling.ts), so
 * the exact comparison plays both engines with `checks: false`; on defaults both report the network's
 * witness load, and the model meets the default policy's targets.
 */

const TOLERANCE = 0.01
const METRICS = ['auc', 'falseAnchoredShare', 'falseAttestedShare', 'trueUnverifiedShare', 'meanTrustTrue', 'meanTrustFalse', 'sybilMeanTrust', 'sybilAttestedShare'] as const

const createPool: RunScenarioOptions['createPool'] = async (count, { privateCheckers }) => await LocalPool.start({ count, ...(privateCheckers === undefined ? {} : { privateCheckers }) })

async function scenario (): Promise<ReturnType<typeof parseScenario>> {
  const small = await loadScenario('small')
  return parseScenario({ ...small, name: 'engines-small', timeScale: { realSecondsPerMinute: 12 } })
}

describe('the real-node and model engines', () => {
  let real: SimResults
  let model: SimResults

  it('play the same plan: every memory published, full delivery on both', async () => {
    const s = await scenario()
    real = await runScenario(s, { runner: 'in-process', createPool, progress: () => {}, checks: false })
    model = await runModelScenario(s, { progress: () => {}, checks: false })
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
      expect(m.witness.checkingNodes, results.engine).toBe(0)
      expect(m.witness.requestsPerMemory, results.engine).toBe(1)
      expect(results.checks).toBeNull()
    }
    expect(model.runs[0]!.metrics.memories).toEqual(real.runs[0]!.metrics.memories)
    expect(model.runs[0]!.metrics.witness.attestationsPerMemory).toBe(real.runs[0]!.metrics.witness.attestationsPerMemory)
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

  it('report the witness load on defaults, and the model with the draw meets the default policy\'s targets', async () => {
    const s = await scenario()
    const onReal = await runScenario(s, { runner: 'in-process', createPool, progress: () => {} })
    const onModel = await runModelScenario(s, { progress: () => {} })
    for (const results of [onReal, onModel]) {
      expect(results.checks, results.engine).toMatchObject({ size: 5, privateChecks: 1 })
      const m = results.runs[0]!.metrics
      expect(m.memories.published).toBe(m.memories.planned)
      expect(m.witness.requestsPerMemory, results.engine).toBeGreaterThanOrEqual(1)
      expect(m.witness.requestsPerMemory, results.engine).toBeLessThanOrEqual(6)
      expect(m.witness.attestationsPerMemory, results.engine).toBeLessThanOrEqual(10)
      expect(m.perNode?.messagesMean, results.engine).toBeGreaterThan(0)
    }
    // Every daemon draws itself and checks privately; the driver answers the drawn items by role.
    const r = onReal.runs[0]!.metrics
    expect(r.witness.checkingNodes).toBe(12)
    expect(r.witness.draw?.drawnAnswersPerMemory).toBeGreaterThan(1)
    const m = onModel.runs[0]!.metrics
    expect(m.witness.checkingNodes).toBe(12)
    expect(m.witness.draw?.drawnPerMemory).toBeGreaterThan(2)
    const byDefault = m.trust.find((t) => t.policy === DEFAULT_TRUST_POLICY)!
    expect(byDefault.auc).toBeGreaterThanOrEqual(0.95)
    expect(byDefault.falseAnchoredShare).toBe(0)
    expect(byDefault.falseAttestedShare).toBeLessThanOrEqual(0.05)
  }, 240_000)
})
