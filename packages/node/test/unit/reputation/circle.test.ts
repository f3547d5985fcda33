import { describe, expect, it } from 'vitest'
import { computeReputation, type VoteGroup } from '../../../src/reputation/index.js'
import { scoreWithSetting, settingOfTable } from '../../../src/reputation/scoring.js'
import { attestationEvidence, memoryEvidence, NOW } from '../trust/fixtures.js'

/*
 * The author's circle as the reputation table reports it (`endorses`, read by isnad-reputation's
 * mutual-vouching rule): a root is never in an author's circle. Hand-made graphs: the
 * author A confirmed memories of the root R and of the stranger W, so A vouches for both by the
 * endorsement edges A → R and A → W; only W is in A's circle.
 */

const groups: VoteGroup[] = [
  { author: 'R', votes: [{ witness: 'A', verdict: 'confirm' }] },
  { author: 'W', votes: [{ witness: 'A', verdict: 'confirm' }, { witness: 'R', verdict: 'confirm' }] },
  { author: 'A', votes: [{ witness: 'R', verdict: 'confirm' }, { witness: 'W', verdict: 'confirm' }] }
]

describe('the author\'s circle', () => {
  it('never holds a root, however the author vouches for it', () => {
    const table = computeReputation(groups, ['R'])
    expect(table.graph.strengths.length).toBeGreaterThan(0)
    expect(table.endorses('A', 'W')).toBe(true) // A → W directly
    expect(table.endorses('A', 'R')).toBe(false) // A → R too, but R is a root
    // Without R as a root the same edge puts R in A's circle.
    expect(computeReputation(groups, ['W']).endorses('A', 'R')).toBe(true)
  })

  it('so a root\'s confirm of a memory whose author vouches for the root counts', () => {
    const table = computeReputation(groups, ['R'])
    const setting = settingOfTable('isnad-reputation', table)
    const memory = memoryEvidence({ author: 'A' })
    const attestations = [attestationEvidence({ id: 'r1', witness: 'R', memory: memory.id }), attestationEvidence({ id: 'w1', witness: 'W', memory: memory.id })]
    const result = scoreWithSetting({ memory, attestations, anchors: [], now: NOW }, setting)
    const notes = new Map(result.counted.attestations.map((a) => [a.witness, a.note ?? '']))
    expect(notes.get('W')).toMatch(/^not counted: the author vouches for W/)
    expect(notes.get('R')).toBe('confirm weighted by reputation 1')
    // R alone carries weight 1 ≥ MIN_CONFIRM_WEIGHT: Attested by one counted confirm.
    expect(result.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.2)
    expect(result.level).toBe('Attested')
  })

  it('is empty for a root author: whom a root vouches for, the node vouches for by its choice of roots', () => {
    expect(computeReputation(groups, ['R']).endorses('A', 'W')).toBe(true)
    const rooted = computeReputation(groups, ['A'])
    expect(rooted.endorses('A', 'W')).toBe(false)
    expect(rooted.endorses('A', 'R')).toBe(false)
    // W is still in another author's circle: R confirmed A's memory, A confirmed W's (R → A → W).
    expect(computeReputation(groups, ['A']).endorses('R', 'W')).toBe(true)
  })
})
