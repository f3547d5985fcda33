import { describe, expect, it } from 'vitest'
import { createPlan, type Scenario } from '../../../src/index.js'
import { shardedScenario } from './sharded-scenario.js'
import { arrivalAt, fetchEvidence, judgedMemories, playModel, runModelOnce } from '../../../src/model/index.js'
import type { AttestationRecord } from 'isnad/engine'

/*
 * Evidence fetching in the model engine (docs/simulation.md, "Evidence fetching"; docs/trust.md §3a):
 * an observer that explains the memories it is judged on fetches the evidence of their witnesses
 * outside its shards — every memory of those authors and its attestations, none it held — and its
 * traffic counts the records and one sync request per round and peer. Seeded; no timing asserted.
 */

const quiet = (): void => {}

function scenarioOf (evidenceFetch: 'off' | 'explained'): Scenario {
  return shardedScenario('evidence-unit', { evidenceFetch })
}

describe('evidence fetching in the model engine', () => {
  const scenario = scenarioOf('explained')
  const plan = createPlan(scenario)
  const run = playModel(scenario, plan, quiet)

  it('brings the memories of the judged memories\' witnesses outside the observer\'s shards, with their attestations, and nothing held', () => {
    const observer = plan.observers[0] as number
    const j = run.tracked.indexOf(observer)
    const judged = judgedMemories(run, observer)
    const attestations = new Map<string, Array<{ id: string, record: AttestationRecord }>>()
    const witnesses = new Set<number>()
    for (let index = run.memoryCount; index < run.records.length; index++) {
      const record = run.records[index]
      if (record === undefined || Number.isNaN(arrivalAt(run, index, j)) || record.record.kind !== 'attestation') continue
      const list = attestations.get(record.record.memory) ?? []
      list.push({ id: record.id, record: record.record })
      attestations.set(record.record.memory, list)
      if (judged.has(record.record.memory)) witnesses.add(run.slotWitness[index - run.memoryCount] as number)
    }
    const outside = [...witnesses].filter((w) => !run.shards.subscribes(observer, run.shards.shardOfAuthor(w)))
    expect(outside.length).toBeGreaterThan(0)
    const fetched = fetchEvidence(run, observer, j, judged, attestations)
    expect(fetched.agents).toBe(outside.length)
    expect(fetched.indexes.length).toBeGreaterThan(0)
    for (const index of fetched.indexes) {
      expect(Number.isNaN(arrivalAt(run, index, j))).toBe(true)
      const serial = index < run.memoryCount ? index : run.slotMemory[index - run.memoryCount] as number
      expect(outside).toContain(plan.memories[serial]?.author)
    }
    const peers = plan.edges.filter(([a, b]) => a === observer || b === observer).length
    expect(fetched.messages).toBe(fetched.indexes.length + Math.ceil(outside.length / 32) * peers)
  })

  it('counts the fetch in the observers\' traffic and says what it played; off by default', () => {
    const explained = runModelOnce(scenario, quiet)
    const off = runModelOnce(scenarioOf('off'), quiet)
    expect(explained.sharding?.evidenceFetch).toBe('explained')
    expect(off.sharding?.evidenceFetch).toBe('off')
    expect(off.sharding?.evidenceMessagesPerMinute.max).toBe(0)
    expect(explained.sharding?.evidenceMessagesPerMinute.max).toBeGreaterThan(0)
    expect(explained.sharding?.messagesPerMinute.mean).toBeGreaterThan(off.sharding?.messagesPerMinute.mean ?? 0)
    expect(explained.notes.some((n) => n.startsWith('evidence: each observer explains'))).toBe(true)
    expect(off.notes.some((n) => n.startsWith('evidence: the observers read their scores as an export does'))).toBe(true)
  })
})
