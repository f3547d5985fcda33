import { describe, expect, it } from 'vitest'
import { LocalPool, loadScenario, parseScenario, runModelScenario, runScenario, type RunScenarioOptions, type SimResults } from '../../../src/sim/index.js'
import { DEFAULT_TRUST_POLICY, SPOT_CHECK_DRAW, TRUST_POLICIES } from '../../../src/trust/index.js'

/*
 * The two engines agree (docs/simulation.md, "The model engine"): a scenario played on real daemons
 * (LevelDB, ledger, HTTP API, libp2p on 127.0.0.1) and on the model engine, with full delivery,
 * gives the same trust metrics: the same records reach the observers, the same trust code scores
 * them. The scenario is the built-in `small` at a shorter time scale.
 *
 * Draw for draw only without spot checks: with them (the default), each observer's daemon draws its
 * witnesses with its own randomness (crypto.randomInt, which an author must not predict, docs/trust.md
 * §5a), which the model cannot replay, so the exact comparison plays both engines with
 * `spotChecks: false`; on defaults both must play spot checks and agree on what the targets measure.
 */

const TOLERANCE = 0.01
const METRICS = ['auc', 'falseAnchoredShare', 'falseAttestedShare', 'trueUnverifiedShare', 'meanTrustTrue', 'meanTrustFalse', 'sybilMeanTrust', 'sybilAttestedShare'] as const

const createPool: RunScenarioOptions['createPool'] = async (count, { spotCheckers }) => await LocalPool.start({ count, ...(spotCheckers === undefined ? {} : { spotCheckers }) })

async function scenario (): Promise<ReturnType<typeof parseScenario>> {
  const small = await loadScenario('small')
  return parseScenario({ ...small, name: 'engines-small', timeScale: { realSecondsPerMinute: 12 } })
}

describe('the real-node and model engines', () => {
  let real: SimResults
  let model: SimResults

  it('play the same plan: every memory published, full delivery on both', async () => {
    const s = await scenario()
    real = await runScenario(s, { runner: 'in-process', createPool, progress: () => {}, spotChecks: false })
    model = await runModelScenario(s, { progress: () => {}, spotChecks: false })
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
      expect(m.witness.spotChecks, results.engine).toEqual({ asked: 0, answered: 0 })
      expect(results.spotChecks).toBeNull()
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

  it('play spot checks on defaults, both, and agree on the default policy\'s targets', async () => {
    const s = await scenario()
    const onReal = await runScenario(s, { runner: 'in-process', createPool, progress: () => {} })
    const onModel = await runModelScenario(s, { progress: () => {} })
    const draw = { perMemory: SPOT_CHECK_DRAW.perMemory, escalation: SPOT_CHECK_DRAW.escalation }
    const asked: number[] = []
    for (const results of [onReal, onModel]) {
      expect(results.spotChecks, results.engine).toEqual(draw)
      const m = results.runs[0]!.metrics
      expect(m.memories.published).toBe(m.memories.planned)
      // Every observer checks the memories it receives: about perMemory witnesses each (fewer when few are reputable).
      expect(m.witness.spotChecks?.asked, results.engine).toBeGreaterThan(m.memories.published * s.metrics.observers)
      expect(m.witness.spotChecks?.answered, results.engine).toBeGreaterThan(0)
      asked.push(m.witness.spotChecks!.asked)
      const byDefault = m.trust.find((t) => t.policy === DEFAULT_TRUST_POLICY)!
      expect(byDefault.auc, results.engine).toBeGreaterThanOrEqual(0.95)
      expect(byDefault.falseAnchoredShare, results.engine).toBe(0)
      expect(byDefault.falseAttestedShare, results.engine).toBeLessThanOrEqual(0.05)
    }
    // The same draw on both, up to each node's randomness and the reputable agents left to draw.
    expect(Math.min(...asked) / Math.max(...asked)).toBeGreaterThan(0.6)
  }, 240_000)
})
