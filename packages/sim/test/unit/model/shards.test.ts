import { describe, expect, it } from 'vitest'
import { createPlan, parseScenario, type Scenario } from '../../../src/index.js'
import { shardedScenario } from './sharded-scenario.js'
import { arrivalAt, followsOf, judgedMemories, MODEL_DRAW_DEFAULTS, playModel, runModelOnce, ShardLayout, SLOT, storedRecordsAt } from '../../../src/model/index.js'
import { shardCountFor, shardOf } from 'isnad/engine'

/*
 * Shards and interests in the model engine (docs/simulation.md, "Scale: shards and interests"): the
 * layout a daemon's defaults give (the count from the network's size, agents by shardOf, home shards
 * bounded), and a small sharded run in which a record reaches exactly its shard's subscribers, a
 * witness request also the addressed witnesses' shards, and every draw stays in the author's shard.
 * Seeded and deterministic; no timing is asserted.
 */

const quiet = (): void => {}

function scenarioOf (sharding: Partial<Scenario['sharding']> = {}): Scenario {
  return shardedScenario('shards-unit', sharding)
}

const didsOf = (size: number): string[] => Array.from({ length: size }, (_, i) => `did:key:z6Mk-shards-unit-${i}`)

describe('the shard layout', () => {
  const scenario = scenarioOf()
  const plan = createPlan(scenario)
  const dids = didsOf(plan.roles.length)

  it('takes the count from the network\'s size and places each agent by shardOf', () => {
    const layout = new ShardLayout(plan, dids, scenario.sharding)
    expect(layout.count).toBe(shardCountFor(600))
    expect(layout.count).toBe(4)
    expect(layout.acceptedCounts).toEqual([2, 4, 8])
    dids.forEach((did, i) => expect(layout.shardOfAgent[i], did).toBe(shardOf(did, 4)))
    expect(layout.members.flat().sort((a, b) => a - b)).toEqual(dids.map((_, i) => i))
  })

  it('subscribes each node to its own shard first and at most maxShards shards', () => {
    const layout = new ShardLayout(plan, dids, { ...scenario.sharding, followsPerAgent: 20, maxShards: 2 })
    layout.homeShards.forEach((home, node) => {
      expect(home[0]).toBe(layout.shardOfAgent[node])
      expect(home.length).toBeLessThanOrEqual(2)
      expect(new Set(home).size).toBe(home.length)
      for (let shard = 0; shard < layout.count; shard++) expect(layout.subscribes(node, shard)).toBe(home.includes(shard))
    })
    expect(layout.unsubscribedFollows).toBeGreaterThan(0)
    // Unbounded, the same follows subscribe more shards.
    const wide = new ShardLayout(plan, dids, { ...scenario.sharding, followsPerAgent: 20, maxShards: 64 })
    expect(wide.unsubscribedFollows).toBe(0)
    expect(Math.max(...wide.homeShards.map((h) => h.length))).toBeGreaterThan(2)
  })

  it('follows the authors that asked an agent most, never itself, the same way every time', () => {
    const follows = followsOf(plan, plan.roles.length, { followsPerAgent: 3, observersFollowRoots: false })
    expect(follows).toEqual(followsOf(plan, plan.roles.length, { followsPerAgent: 3, observersFollowRoots: false }))
    const askedBy = new Map<number, Set<number>>()
    for (const m of plan.memories) for (const a of m.answers) askedBy.set(a.witness, (askedBy.get(a.witness) ?? new Set()).add(m.author))
    follows.forEach((authors, agent) => {
      expect(authors.length).toBeLessThanOrEqual(3)
      expect(authors).not.toContain(agent)
      for (const author of authors) expect(askedBy.get(agent)?.has(author)).toBe(true)
      expect(authors.length).toBe(Math.min(3, askedBy.get(agent)?.size ?? 0))
    })
    const roots = followsOf(plan, plan.roles.length, { followsPerAgent: 3, observersFollowRoots: true })
    for (const o of plan.observers) expect(roots[o]?.slice(0, plan.trustRoots.filter((r) => r !== o).length)).toEqual(plan.trustRoots.filter((r) => r !== o))
  })

  it('is one shard, every node subscribed, below 160 agents: today\'s network', () => {
    const small = parseScenario({ name: 'shards-small', seed: 3, durationMinutes: 1, nodes: { 'honest-author': 20, 'honest-witness': 130 } })
    const smallPlan = createPlan(small)
    const layout = new ShardLayout(smallPlan, didsOf(150), small.sharding)
    expect(layout.count).toBe(1)
    expect(layout.homeShards.every((h) => h.length === 1 && h[0] === 0)).toBe(true)
  })
})

describe('a sharded model run', () => {
  const scenario = scenarioOf()
  const plan = createPlan(scenario)
  const run = playModel(scenario, plan, quiet)
  const { shards } = run
  const shardOfMemory = (serial: number): number => shards.shardOfAuthor(plan.memories[serial]?.author as number)

  it('delivers each memory and attestation to its shard\'s subscribers and to no other node', () => {
    expect(shards.count).toBe(4)
    let delivered = 0
    let withheld = 0
    for (let index = 0; index < run.records.length; index++) {
      if (run.records[index] === undefined) continue
      const serial = index < run.memoryCount ? index : run.slotMemory[index - run.memoryCount] as number
      const source = index < run.memoryCount ? plan.memories[serial]?.author : run.slotWitness[index - run.memoryCount]
      run.tracked.forEach((node, j) => {
        if (node === source) return
        const held = !Number.isNaN(arrivalAt(run, index, j))
        expect(held, `record ${index} at node ${node}`).toBe(shards.subscribes(node, shardOfMemory(serial)))
        if (held) delivered++
        else withheld++
      })
    }
    expect(delivered).toBeGreaterThan(1000)
    expect(withheld).toBeGreaterThan(1000)
  })

  it('has about one holder check privately per memory when no drawn witness answers, as in one shard', () => {
    // A draw of almost nobody: every holder (its shard's nodes) lacks a drawn answer and asks with probability c/N.
    const undrawn = playModel(scenario, plan, quiet, { draw: { ...MODEL_DRAW_DEFAULTS, size: 1e-6 } })
    const perMemory = (undrawn.checks.privateChecks + undrawn.checks.privateUnasked) / plan.memories.length
    expect(undrawn.checks.drawn).toBe(0)
    // The holders are the shard's nodes plus the nodes of other shards that follow the author (about
    // 1.5 shards a node here), so a little over one check per memory; with 1/N it would be ~0.4.
    expect(perMemory).toBeGreaterThan(0.8)
    expect(perMemory).toBeLessThan(2)
  })

  it('draws every witness from the author\'s shard, about `size` of them per memory', () => {
    let drawn = 0
    run.drawn.forEach((witnesses, serial) => {
      for (const w of witnesses) expect(shards.shardOfAgent[w], `memory ${serial}, witness ${w}`).toBe(shardOfMemory(serial))
      drawn += witnesses.length
    })
    expect(drawn / run.memoryCount).toBeGreaterThan(3.5)
    expect(drawn / run.memoryCount).toBeLessThan(6.5)
    // A drawn witness's attestation reaches the subscribers of the author's shard (the test above), so it holds the memory it witnesses.
    run.slotKind.forEach((kind, slot) => {
      if (kind !== SLOT.drawn) return
      expect(shards.subscribes(run.slotWitness[slot] as number, shardOfMemory(run.slotMemory[slot] as number))).toBe(true)
    })
  })

  it('carries a witness request to the author\'s shard and each addressed witness\'s shard only', () => {
    run.tracked.forEach((node, j) => {
      let expected = 0
      for (const m of plan.memories) {
        if (m.answers.length === 0 || m.author === node || Number.isNaN(run.publishedAt[m.serial] as number)) continue
        if (shards.receivesAny(node, shards.requestShards(m.author, m.answers.map((a) => a.witness)))) expected++
      }
      expect(run.counters.requests[j], `node ${node}`).toBe(expected)
    })
  })

  it('stores at each node only its shards\' records, and judges each observer on its home shards\' memories', () => {
    // Every record and request the network published (a node of every shard would hold them all).
    const everything = run.records.filter((r) => r !== undefined).length + plan.memories.filter((m) => m.answers.length > 0).length
    let partial = 0
    run.tracked.forEach((node, j) => {
      if (shards.homeShards[node]?.length === shards.count) return
      partial++
      expect(storedRecordsAt(run, j)).toBeLessThan(everything)
    })
    expect(partial).toBeGreaterThan(100)
    for (const o of plan.observers) {
      const judged = judgedMemories(run, o)
      plan.memories.forEach((m, serial) => {
        const id = run.records[serial]?.id
        if (id !== undefined) expect(judged.has(id)).toBe(shards.subscribes(o, shards.shardOfAuthor(m.author)))
      })
    }
  })

  it('reports the shards and their cost per node in the run\'s results, the same for the same seed', () => {
    const result = runModelOnce(scenario, quiet)
    const sharding = result.sharding
    expect(sharding?.count).toBe(4)
    expect(sharding?.maxShards).toBe(8)
    expect(sharding?.followsPerAgent).toBe(3)
    expect(sharding?.shardsPerNode.max).toBeLessThanOrEqual(8)
    expect(sharding?.messagesPerMinute.mean).toBeGreaterThan(0)
    expect(sharding?.storedRecords.min).toBeLessThan(run.records.filter((r) => r !== undefined).length)
    expect(result.metrics.delivery.memoryRatio).toBe(1)
    expect(result.metrics.delivery.attestationRatio).toBe(1)
    expect(result.notes.some((n) => n.startsWith('shards: 4 from 600 agents'))).toBe(true)
    expect(runModelOnce(scenario, quiet).sharding).toEqual(sharding)
  })
})
