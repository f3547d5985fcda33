import { describe, expect, it } from 'vitest'
import { linkConditionsOf, parseScenario } from '../../src/index.js'

/* The scenario's `network` as the link conditions every runner applies (docs/simulation.md, "Latency and loss"). */

const base = { name: 'links', seed: 9, durationMinutes: 1, nodes: { 'honest-author': 2 } }

describe('linkConditionsOf', () => {
  it('takes latency, jitter and loss from the scenario and the seed from its seed', () => {
    const scenario = parseScenario({ ...base, network: { latencyMs: 20, jitterMs: 5, lossPercent: 1 } })
    expect(linkConditionsOf(scenario)).toEqual({ latencyMs: 20, jitterMs: 5, lossPercent: 1, seed: 9 })
  })

  it('is undefined when the scenario asks for no shaping, so none is installed', () => {
    expect(linkConditionsOf(parseScenario(base))).toBeUndefined()
  })
})
