import { describe, expect, it } from 'vitest'
import { createPlan, loadScenario, parseScenario } from '../../../../src/sim/index.js'
import { playModel, runModelOnce, SPOT_CHECKS_PER_MEMORY, SPOT_ESCALATION } from '../../../../src/sim/model/index.js'
import { SPOT_CHECK_DRAW } from '../../../../src/trust/index.js'

/*
 * The observers' spot checks in the model engine (issue 18, third pass; src/sim/model/spot-checks.ts):
 * each observer asks witnesses of its own choosing about every memory it receives — never the author,
 * a witness the author asked or itself — signs the request with its own agent, asks more once when an
 * answer is a dispute, and its policy counts the confirms of the witnesses it asked as independent.
 */

const quiet = (): void => {}

const SMALL = parseScenario({
  name: 'spot-unit',
  seed: 5,
  durationMinutes: 2,
  nodes: { 'honest-author': 4, 'honest-witness': 12, colluder: 4 },
  requests: { memoriesPerAuthorPerMinute: 2, witnessesPerMemory: 3 },
  metrics: { observers: 3, trustRoots: 3, sybilSweep: [] }
})

describe('spot checks in the model engine', () => {
  it('has each observer ask witnesses the author did not choose, with its own signed request', () => {
    const plan = createPlan(SMALL)
    const run = playModel(SMALL, plan, quiet, { spotChecks: SPOT_CHECKS_PER_MEMORY })
    const dids = run.agents.map((a) => a.did)
    expect(run.spotRequests.length).toBeGreaterThan(0)
    const firstRounds = new Set<string>()
    for (const { observer, memory, request } of run.spotRequests) {
      const planned = plan.memories[memory]!
      expect(plan.observers).toContain(observer)
      expect(request.record.requester).toBe(dids[observer])
      expect(request.record.memory).toBe(run.records[memory]?.id)
      const asked = request.record.witnesses ?? []
      expect(asked.length).toBeGreaterThan(0)
      const excluded = [planned.author, observer, ...planned.answers.map((a) => a.witness)].map((i) => dids[i])
      for (const witness of asked) expect(excluded, `memory ${memory}`).not.toContain(witness)
      const key = `${observer}/${memory}`
      // The first request of a pair asks SPOT_CHECKS_PER_MEMORY; a second one is the escalation.
      expect(asked.length).toBeLessThanOrEqual(firstRounds.has(key) ? SPOT_ESCALATION : SPOT_CHECKS_PER_MEMORY)
      firstRounds.add(key)
    }
    // Every observer checks the memories it holds, at most twice each (the round and one escalation).
    for (const observer of plan.observers) {
      const mine = run.spotRequests.filter((r) => r.observer === observer)
      expect(mine.length).toBeGreaterThanOrEqual(plan.memories.length / 2)
      expect(new Set(mine.map((r) => r.memory)).size).toBeGreaterThan(mine.length / 2)
    }
    // The spot-checked witnesses' answers are published like any attestation.
    let answered = 0
    for (let slot = run.spotSlotStart; slot < run.slotWitness.length; slot++) if (run.records[run.memoryCount + slot] !== undefined) answered++
    expect(answered).toBeGreaterThan(run.spotRequests.length)
  })

  it('plays the daemon\'s spot checks by default (SPOT_CHECK_DRAW), as `isnad start` issues them', () => {
    const plan = createPlan(SMALL)
    const byDefault = playModel(SMALL, plan, quiet)
    const explicit = playModel(SMALL, plan, quiet, { spotChecks: SPOT_CHECK_DRAW.perMemory, spotEscalation: SPOT_CHECK_DRAW.escalation })
    expect(SPOT_CHECKS_PER_MEMORY).toBe(SPOT_CHECK_DRAW.perMemory)
    expect(SPOT_ESCALATION).toBe(SPOT_CHECK_DRAW.escalation)
    expect(byDefault.spotRequests.length).toBeGreaterThan(0)
    expect(byDefault.spotRequests.map((r) => r.request.id)).toEqual(explicit.spotRequests.map((r) => r.request.id))
  })

  it('plays none with spotChecks 0 (`isnad sim run --no-spot-checks`), and the isnad-spot-check policy then counts nothing', () => {
    const run = runModelOnce(SMALL, quiet, { spotChecks: 0 })
    const played = playModel(SMALL, createPlan(SMALL), quiet, { spotChecks: 0 })
    expect(played.spotRequests).toHaveLength(0)
    expect(played.slotWitness.length).toBe(played.spotSlotStart)
    expect(run.metrics.witness.spotChecks).toEqual({ asked: 0, answered: 0 })
    const spot = run.metrics.trust.find((t) => t.policy === 'isnad-spot-check')
    expect(spot?.trueUnverifiedShare).toBe(1)
  })

  it('counts the witnesses asked and the answers in the run\'s metrics', () => {
    const run = runModelOnce(SMALL, quiet)
    const counts = run.metrics.witness.spotChecks
    expect(counts?.asked).toBeGreaterThanOrEqual(SPOT_CHECK_DRAW.perMemory * run.metrics.memories.published)
    expect(counts?.answered).toBeGreaterThan(0)
    expect(counts?.answered).toBeLessThanOrEqual(counts?.asked ?? 0)
  })

  it('lets the spot checks make true memories Attested under isnad-spot-check and keeps the circle\'s false ones out', async () => {
    const scenario = await loadScenario('scenarios/attacks/hidden-circle.yaml')
    const run = runModelOnce(scenario, quiet, { spotChecks: SPOT_CHECKS_PER_MEMORY })
    const spot = run.metrics.trust.find((t) => t.policy === 'isnad-spot-check')
    expect(spot?.falseAttestedShare).toBe(0)
    expect(spot?.trueUnverifiedShare).toBeLessThan(0.2)
    expect(spot?.auc).toBeGreaterThan(0.95)
    const without = runModelOnce(scenario, quiet, { spotChecks: 0 })
    // Without spot checks the circle's false memories are Attested under isnad-reputation (docs/simulation.md, second pass).
    expect(without.metrics.trust.find((t) => t.policy === 'isnad-reputation')?.falseAttestedShare).toBeGreaterThan(0.9)
  })
})
