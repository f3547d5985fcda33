import { describe, expect, it } from 'vitest'
import { createPlan, parseScenario, resultsOf, verdictOf } from '../../../src/index.js'
import {
  binomial, createFastRandom, DRAW_SAMPLED, distinctPositions, drawProbability, memoryRandom, MODEL_DRAW_DEFAULTS, playModel, privateCheckProbability,
  runModelOnce, sampleDrawn, SLOT, WitnessBudget, type AgentList
} from '../../../src/model/index.js'

/*
 * The witness draw in the model engine (docs/simulation.md, "The witness draw"): drawn sets sampled
 * from the draw's distribution and seeded by the memory, a grinding author moving only its circle's
 * part, the witness budget, private checks at about one per memory network-wide, and the results'
 * witness metrics.
 */

const quiet = (): void => {}
const all = (n: number): AgentList => ({ length: n, at: (i) => i })

const SMALL = parseScenario({
  name: 'draw-unit',
  seed: 5,
  durationMinutes: 2,
  nodes: { 'honest-author': 4, 'honest-witness': 12, colluder: 4 },
  requests: { memoriesPerAuthorPerMinute: 2, witnessesPerMemory: 3 },
  metrics: { observers: 3, trustRoots: 3, sybilSweep: [] }
})

describe('draw sampling', () => {
  it('draws the same witnesses for the same memory and seed, and others for another memory', () => {
    const draw = (serial: number): number[] => sampleDrawn(memoryRandom(7, serial), { agents: all(1000), p: drawProbability(5, 1000) })
    expect(draw(3)).toEqual(draw(3))
    expect(draw(3)).not.toEqual(draw(4))
    expect(sampleDrawn(memoryRandom(8, 3), { agents: all(1000), p: 0.005 })).not.toEqual(draw(3))
  })

  it('draws about size witnesses per memory, each agent with probability size / N, distinct', () => {
    const N = 10_000
    const p = drawProbability(MODEL_DRAW_DEFAULTS.size, N)
    const counts: number[] = []
    const hits = new Float64Array(10)
    for (let serial = 0; serial < 4000; serial++) {
      const drawn = sampleDrawn(memoryRandom(1, serial), { agents: all(N - 1), p })
      expect(new Set(drawn).size, `memory ${serial}`).toBe(drawn.length)
      for (const a of drawn) { expect(a).toBeGreaterThanOrEqual(0); expect(a).toBeLessThan(N - 1); hits[a % 10]! += 1 }
      counts.push(drawn.length)
    }
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length
    const variance = counts.reduce((a, b) => a + (b - mean) ** 2, 0) / (counts.length - 1)
    // Binomial(9999, 5/10000): mean ≈ 5, variance ≈ 5; 4000 memories put the mean within ±0.15 (4 sd).
    expect(mean).toBeGreaterThan(4.85)
    expect(mean).toBeLessThan(5.15)
    expect(variance).toBeGreaterThan(4.3)
    expect(variance).toBeLessThan(5.7)
    // No agent class is favoured: each tenth of the agents gets a tenth of the draws (±15 %).
    const total = hits.reduce((a, b) => a + b, 0)
    for (const h of hits) expect(Math.abs(h / total - 0.1)).toBeLessThan(0.015)
    // Fewer agents than size: everybody is drawn.
    expect(drawProbability(5, 4)).toBe(1)
    expect(sampleDrawn(memoryRandom(1, 0), { agents: all(3), p: 1 })).toEqual([0, 1, 2])
  })

  it('binomial and distinct positions stay in range', () => {
    const random = createFastRandom(3, 9)
    for (let i = 0; i < 200; i++) {
      const k = binomial(random, 20, 0.3)
      expect(k).toBeGreaterThanOrEqual(0)
      expect(k).toBeLessThanOrEqual(20)
    }
    expect(binomial(random, 10, 0)).toBe(0)
    expect(binomial(random, 10, 1)).toBe(10)
    const positions = distinctPositions(random, 50, 50)
    expect(positions).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(distinctPositions(random, 5, 9)).toHaveLength(5)
  })

  it('a grinding author raises how many of its circle are drawn, never how many honest agents are', () => {
    const N = 1000
    const p = drawProbability(5, N)
    const circle = Array.from({ length: 100 }, (_, i) => i)
    let circleOnce = 0
    let circleGround = 0
    let honestOnce = 0
    let honestGround = 0
    const runs = 2000
    for (let serial = 0; serial < runs; serial++) {
      const once = sampleDrawn(memoryRandom(2, serial), { agents: all(N), p, circle: { members: all(100), attempts: 1 } })
      const ground = sampleDrawn(memoryRandom(2, serial), { agents: all(N), p, circle: { members: { length: circle.length, at: (i) => circle[i] as number }, attempts: 1000 } })
      circleOnce += once.filter((a) => a < 100).length
      circleGround += ground.filter((a) => a < 100).length
      honestOnce += once.filter((a) => a >= 100).length
      honestGround += ground.filter((a) => a >= 100).length
    }
    // Without grinding the circle gets its share (100 × 0.005 = 0.5 a memory); 1,000 attempts push it to ~4.
    expect(circleOnce / runs).toBeGreaterThan(0.4)
    expect(circleOnce / runs).toBeLessThan(0.6)
    expect(circleGround / runs).toBeGreaterThan(3)
    // The honest part stays Binomial(900, 0.005): ≈ 4.5 a memory, ground or not.
    for (const honest of [honestOnce, honestGround]) {
      expect(honest / runs).toBeGreaterThan(4.3)
      expect(honest / runs).toBeLessThan(4.7)
    }
  })

  it('private checks are asked with probability privateChecks / N', () => {
    expect(privateCheckProbability(10_000)).toBeCloseTo(1e-4)
    expect(privateCheckProbability(1)).toBe(1)
    expect(privateCheckProbability(0)).toBe(1)
  })
})

describe('the witness budget', () => {
  it('answers at most perAuthorPerHour memories of one author an hour, perMinute in all a minute', () => {
    const budget = new WitnessBudget({ perAuthorPerHour: 3, perMinute: 5 }, 10)
    const minute = 60_000
    // Author 1 floods witness 0: three answers this hour, then skips, even in later minutes.
    expect([0, 1, 2, 3].map((k) => budget.take(0, 1, k))).toEqual([true, true, true, false])
    expect(budget.take(0, 1, 10 * minute)).toBe(false)
    // Other authors still get answers, until the minute's five are spent.
    expect(budget.take(0, 2, 5)).toBe(true)
    expect(budget.take(0, 3, 6)).toBe(true)
    expect(budget.take(0, 4, 7)).toBe(false) // five in minute 0: 1, 1, 1, 2, 3
    expect(budget.take(1, 1, 8)).toBe(true) // another witness has its own budget
    // The next hour, author 1 has a fresh share.
    expect(budget.take(0, 1, 60 * minute)).toBe(true)
    expect(budget.skipped).toBe(3)
  })
})

describe('the draw in the model engine', () => {
  it('draws witnesses for every memory, publishes their answers and counts them', () => {
    const plan = createPlan(SMALL)
    const run = playModel(SMALL, plan, quiet)
    expect(run.drawn).toHaveLength(plan.memories.length)
    expect(run.checks.checkingNodes).toBe(plan.roles.length)
    for (const [serial, drawn] of run.drawn.entries()) {
      expect(drawn, `memory ${serial}`).not.toContain(plan.memories[serial]?.author)
    }
    const drawnSlots = run.slotKind.flatMap((kind, slot) => kind === SLOT.drawn ? [slot] : [])
    expect(drawnSlots.length).toBe(run.checks.drawn)
    const answered = drawnSlots.filter((slot) => run.records[run.memoryCount + slot] !== undefined)
    expect(answered.length).toBe(run.checks.drawnAnswers)
    expect(answered.length).toBeGreaterThan(plan.memories.length * 2)
  })

  it('plays no draw and no private check with checks off (`isnad sim run --no-checks`)', () => {
    const run = playModel(SMALL, createPlan(SMALL), quiet, { checks: false })
    expect(run.checks.drawn).toBe(0)
    expect(run.checks.privateChecks).toBe(0)
    expect(run.checks.checkingNodes).toBe(0)
    expect(run.slotKind.every((k) => k === SLOT.planned)).toBe(true)
  })

  it('has about one node check privately per memory when no drawn witness answers', () => {
    const scenario = parseScenario({ ...SMALL, nodes: { 'honest-author': 10, 'honest-witness': 70 }, requests: { memoriesPerAuthorPerMinute: 5, witnessesPerMemory: 3 } })
    const plan = createPlan(scenario)
    // A draw of almost nobody: every node lacks a drawn answer and asks with probability 1/N.
    const run = playModel(scenario, plan, quiet, { draw: { ...MODEL_DRAW_DEFAULTS, size: 1e-6 } })
    const perMemory = (run.checks.privateChecks + run.checks.privateUnasked) / plan.memories.length
    expect(run.checks.drawn).toBe(0)
    expect(perMemory).toBeGreaterThan(0.6)
    expect(perMemory).toBeLessThan(1.4)
    // An observer's private check is its own signed request, naming one witness neither the author nor itself.
    for (const { observer, memory, request } of run.privateRequests) {
      expect(plan.observers).toContain(observer)
      expect(request.record.requester).toBe(run.agents[observer]?.did)
      expect(request.record.witnesses).toHaveLength(1)
      expect(request.record.witnesses).not.toContain(run.agents[plan.memories[memory]!.author]?.did)
    }
    // With the default draw nearly every node holds a drawn answer in time: private checks are rare.
    const usual = playModel(scenario, plan, quiet)
    expect(usual.checks.privateChecks / plan.memories.length).toBeLessThan(0.2)
  })

  it('reports the witness metrics in each run and the draw in the results', () => {
    const run = runModelOnce(SMALL, quiet)
    const w = run.metrics.witness
    expect(w.checkingNodes).toBe(20)
    expect(w.requestsPerMemory).toBeGreaterThanOrEqual(1)
    expect(w.requestsPerMemory).toBeLessThanOrEqual(6)
    expect(w.attestationsPerMemory).toBeGreaterThan(3)
    expect(w.attestationsPerMemory).toBeLessThanOrEqual(10)
    expect(w.draw?.drawnPerMemory).toBeGreaterThan(3)
    const results = JSON.parse(JSON.stringify(resultsOf(SMALL, 'model', [run], 0, true, DRAW_SAMPLED)))
    expect(results.checks).toMatchObject({ size: 5, privateChecks: 1, perAuthorPerHour: 30, perMinute: 60 })
    expect(results.checks.sampled).toMatch(/Binomial/)
    expect(results.runs[0].metrics.witness).toMatchObject({ checkingNodes: 20 })
    expect(results.runs[0].metrics.perNode).not.toBeNull()
    const off = runModelOnce(SMALL, quiet, { checks: false })
    expect(off.metrics.witness.checkingNodes).toBe(0)
    expect(resultsOf(SMALL, 'model', [off], 0, false).checks).toBeNull()
  })
})

describe('the draw\'s adversaries', () => {
  const attack = parseScenario({
    name: 'draw-attacks',
    seed: 11,
    durationMinutes: 2,
    nodes: { 'honest-author': 4, 'honest-witness': 20, grinder: 3, withholder: 3, 'late-publisher': 3, flooder: 2 },
    requests: { memoriesPerAuthorPerMinute: 1, witnessesPerMemory: 2 },
    behaviour: { grindAttempts: 500, lateMinutes: 7, floodPerMinute: 20 },
    metrics: { observers: 3, trustRoots: 3, sybilSweep: [] }
  })
  const plan = createPlan(attack)
  const byRole = (role: string) => plan.memories.filter((m) => plan.roles[m.author] === role)

  it('plans their memories false, asked of their own kind; a flooder at its rate; a late publisher dated back', () => {
    for (const role of ['grinder', 'withholder', 'late-publisher', 'flooder']) {
      const memories = byRole(role)
      expect(memories.length, role).toBeGreaterThan(0)
      // Asked of its own kind first (two witnesses; a flooder has one other flooder), who confirm.
      expect(memories.every((m) => !m.truth && plan.roles[m.answers[0]!.witness] === role && m.answers.every((a) => plan.roles[a.witness] !== role || a.verdict === 'confirm')), role).toBe(true)
    }
    // Two flooders at 20 a minute for 2 minutes: about 80 memories (Poisson), honest authors about 8.
    expect(byRole('flooder').length).toBeGreaterThan(50)
    expect(byRole('honest-author').length).toBeLessThan(20)
    expect(byRole('late-publisher').every((m) => m.datedBackMinutes === 7)).toBe(true)
    expect(byRole('grinder').every((m) => m.datedBackMinutes === undefined)).toBe(true)
  })

  it('a withholder answers requests honestly and stays silent when drawn on others\' memories', () => {
    const input = { scenario: attack, witnessRole: 'withholder' as const, authorRole: 'honest-author' as const, truth: true, at: 1, draw: 0.1 }
    expect(verdictOf(input)).toBe('confirm')
    expect(verdictOf({ ...input, drawn: true })).toBeNull()
    expect(verdictOf({ ...input, authorRole: 'withholder', truth: false, drawn: true })).toBe('confirm')
    expect(verdictOf({ ...input, witnessRole: 'grinder', authorRole: 'grinder', truth: false, drawn: true })).toBe('confirm')
  })

  it('a grinder gets more of its kind drawn; a late publisher\'s memory is dated back and published with its kind\'s answers', () => {
    const run = playModel(attack, plan, quiet)
    const kindShare = (role: string): number => {
      const memories = byRole(role)
      const kind = memories.reduce((n, m) => n + (run.drawn[m.serial] ?? []).filter((w) => plan.roles[w] === role).length, 0)
      return kind / memories.length
    }
    // 2 others of the kind at p = 5/35: 0.29 a memory without grinding; ground, nearly both.
    expect(kindShare('grinder')).toBeGreaterThan(1)
    expect(kindShare('late-publisher')).toBeGreaterThan(1)
    for (const m of byRole('late-publisher')) {
      const memory = run.records[m.serial]
      if (memory?.record.kind !== 'memory') continue
      const published = run.publishedAt[m.serial] as number
      expect(Date.parse(memory.record.created_at)).toBe(Date.parse('2026-01-01T00:00:00Z') + Math.round(published - 7 * 60_000))
      // Its kind's answers go out at the memory's publication, dated before it.
      const kindAnswers = run.slotMemory.flatMap((serial, slot) => serial === m.serial && plan.roles[run.slotWitness[slot]!] === 'late-publisher' && run.records[run.memoryCount + slot] !== undefined ? [slot] : [])
      expect(kindAnswers.length).toBeGreaterThan(0)
      for (const slot of kindAnswers) {
        expect(run.publishedAt[run.memoryCount + slot]).toBe(published)
        const att = run.records[run.memoryCount + slot]?.record
        if (att?.kind === 'attestation') expect(Date.parse(att.witnessed_at)).toBeLessThan(Date.parse('2026-01-01T00:00:00Z') + published)
      }
    }
  })

  it('the flood meets the witness budget: answers are skipped and flooders\' own share runs out', () => {
    const flood = parseScenario({ ...attack, name: 'draw-flood', nodes: { 'honest-author': 4, 'honest-witness': 12, flooder: 2 }, behaviour: { floodPerMinute: 300 } })
    const run = playModel(flood, createPlan(flood), quiet)
    expect(run.checks.budgetSkipped).toBeGreaterThan(0)
  })
})
