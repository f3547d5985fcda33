import { describe, expect, it } from 'vitest'
import { computeMetrics, createPlan, loadScenario } from '../../src/index.js'
import { createObservations } from '../../src/driver/observations.js'

/*
 * Attestation delivery (src/sim/driver/metrics.ts): an arrival the event stream reported counts with its
 * latency; an attestation a node was found holding at the end with no event seen (held-attestations.ts:
 * a node that joined again and synced before its stream reopened) counts as delivered, without one.
 */

describe('attestation delivery', () => {
  it('counts held attestations as delivered without a latency sample', async () => {
    const plan = createPlan(await loadScenario('small'))
    const observations = createObservations()
    observations.onlineAtEnd = [0, 1, 2, 3]
    observations.memories.push({ serial: 0, author: 0, truth: true, at: 0, id: 'm0' })
    // Witness 1's attestation: seen at 0 and 2 after 100 and 300 ms, held by 3 with no event.
    observations.attestations.set('m0|w1', { memory: 'm0', witness: 1, verdict: 'confirm', sentAt: 1000, arrivals: new Map([[0, 1100], [2, 1300]]), held: new Set([3]) })
    const input = { plan, observations, views: [], memoryCounts: [1, 1, 1, 1], counters: [], meanRecordBytes: 0, policies: [] }
    const m = computeMetrics(input)
    expect(m.delivery.attestationRatio).toBe(1)
    expect(m.delivery.latencyMs).toMatchObject({ samples: 2, p50: 100, max: 300 })
    observations.attestations.get('m0|w1')!.held = undefined
    expect(computeMetrics(input).delivery.attestationRatio).toBe(0.6667)
  })
})
