import { describe, expect, it } from 'vitest'
import { computeTrust, TrustResultSchema, type AttestationEvidence, type ReputationLookup } from '../../../src/trust/index.js'
import { attestationEvidence, cid, confirms, did, memoryEvidence, NOW, T0, minutes } from './fixtures.js'

/*
 * Policy `isnad-reputation` and the disagreement rules of docs/trust.md: how partials count, how a
 * reputable dispute weighs against confirmations by unknown keys, and equality with isnad-v0.1 when
 * every witness is fully reputable.
 */

function reputations (table: Record<string, number>, otherwise = 0): ReputationLookup {
  return (agent) => table[agent] ?? otherwise
}

function score (attestations: AttestationEvidence[], reputation: ReputationLookup, policy: 'isnad-v0.1' | 'isnad-reputation' = 'isnad-reputation'): ReturnType<typeof computeTrust> {
  return computeTrust({ memory: memoryEvidence(), attestations, anchors: [], reputation, now: NOW }, { policy })
}

describe('isnad-reputation', () => {
  it('equals isnad-v0.1 at its steps (0, 1, ≥3 confirms) when every witness has reputation 1, and interpolates at 2', () => {
    expect(score(confirms(2), reputations({}, 1)).points).toBe((score(confirms(2), reputations({}, 1), 'isnad-v0.1').points ?? NaN) + 0.05)
    for (const n of [0, 1, 3, 5]) {
      const full = reputations({}, 1)
      const a = score(confirms(n), full)
      const b = score(confirms(n), full, 'isnad-v0.1')
      expect(a.points, `${n} confirms`).toBe(b.points)
      expect(a.contributions.map((c) => c.points)).toEqual(b.contributions.map((c) => c.points))
    }
  })

  it('weighs confirms by reputation, continuously between the v0.1 steps', () => {
    const half = reputations({}, 0.5)
    // C = 0.5: +0.2 × 0.5; author 0.2 × 0.5.
    expect(score(confirms(1), half).contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.1)
    // C = 2: +0.2, and +0.1 × (2 − 1)/2.
    expect(score(confirms(4), half).contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.25)
  })

  it('counts a partial as half a confirm; isnad-v0.1 counts it as nothing', () => {
    const full = reputations({}, 1)
    const partials = confirms(2, 'partial', 'p')
    expect(score(partials, full).contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.2) // C = 1
    expect(score(partials, full, 'isnad-v0.1').contributions.find((c) => c.factor === 'confirms')?.points).toBe(0)
    expect(score(partials, full).counted.attestations[0]?.note).toMatch(/half a confirm/)
  })

  it('a dispute by a reputable witness outweighs any number of confirmations by unknown keys', () => {
    const unknown = confirms(50, 'confirm', 'u')
    const dispute = attestationEvidence({ id: 'd1', witness: 'reputable', verdict: 'dispute', at: T0 + minutes(6) })
    const rep = reputations({ reputable: 1, author: 0.5 })
    const alone = score([], rep).points ?? NaN
    const result = score([...unknown, dispute], rep)
    expect(result.points).toBe(Math.round((alone - 0.15) * 1e4) / 1e4)
    expect(result.counted.attestations.find((a) => a.id === 'd1')?.points).toBe(-0.15)
    // Under isnad-v0.1 the same fifty unknown keys outvote it.
    expect(score([...unknown, dispute], rep, 'isnad-v0.1').points).toBeGreaterThan(alone)
  })

  it('a dispute by an unknown key costs nothing', () => {
    const rep = reputations({ author: 0.5 })
    expect(score([attestationEvidence({ id: 'd1', witness: 'nobody', verdict: 'dispute' })], rep).points).toBe(score([], rep).points)
  })

  it('produces a valid TrustResult naming its policy', () => {
    const memory = memoryEvidence({ id: cid('m'), author: did('author') })
    const attestations = [attestationEvidence({ id: cid('a'), witness: did('w'), memory: memory.id, verdict: 'partial' })]
    const result = computeTrust({ memory, attestations, anchors: [], reputation: () => 0.7, now: NOW }, { policy: 'isnad-reputation' })
    expect(TrustResultSchema.parse(result).policy).toBe('isnad-reputation')
  })
})

describe('isnad-reputation: how much confirm weight attests', () => {
  const full = (): number => 1
  const scoreWith = (attestations: AttestationEvidence[], endorses: (from: string, to: string) => boolean, reputation: ReputationLookup = full): ReturnType<typeof computeTrust> =>
    computeTrust({ memory: memoryEvidence({ author: 'A' }), attestations, anchors: [], reputation, endorses, rooted: true, now: NOW }, { policy: 'isnad-reputation' })
  const none = (): boolean => false

  it('does not count a confirm that agrees with the author\'s circle alone (at least CIRCLE_MIN = 2 circle confirmers)', () => {
    const circle = (from: string, to: string): boolean => from === 'A' && (to === 'w1' || to === 'w2')
    const two = [attestationEvidence({ id: 'a1', witness: 'w1' }), attestationEvidence({ id: 'a2', witness: 'w2' })]
    const three = [...two, attestationEvidence({ id: 'a3', witness: 'w3' })]
    const alone = scoreWith(three, circle)
    expect(alone.level).toBe('Unverified')
    expect(alone.counted.attestations.map((a) => a.note?.startsWith('not counted'))).toEqual([true, true, true])
    expect(alone.counted.attestations.find((a) => a.witness === 'w3')?.note).toMatch(/author's circle alone/)
    // An independent confirmer beside them: w3 no longer agrees with the circle alone, and both outsiders count.
    const four = scoreWith([...three, attestationEvidence({ id: 'a4', witness: 'w4' })], circle)
    expect(four.level).toBe('Attested')
    expect(four.counted.attestations.filter((a) => a.note?.startsWith('not counted') === true).map((a) => a.witness)).toEqual(['w1', 'w2'])
  })

  it('one circle confirmer is a coincidence: the confirmer beside it still counts', () => {
    const circle = (from: string, to: string): boolean => from === 'A' && to === 'w1'
    const two = [attestationEvidence({ id: 'a1', witness: 'w1' }), attestationEvidence({ id: 'a2', witness: 'w2' })]
    const result = scoreWith(two, circle)
    // w1 is not counted (the author vouches for it); w2 counts alone: C = 1 → +0.2, Attested.
    expect(result.counted.attestations.filter((a) => a.note?.startsWith('not counted') === true).map((a) => a.witness)).toEqual(['w1'])
    expect(result.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.2)
    expect(result.level).toBe('Attested')
  })

  it('attests only with confirm weight ≥ 0.5 and at least twice the disputes\' weight', () => {
    const one = [attestationEvidence({ id: 'a1', witness: 'w1' })]
    expect(scoreWith(one, none, () => 0.49).level).toBe('Unverified')
    expect(scoreWith(one, none, () => 0.5).level).toBe('Attested')
    // One wrong confirm against two disputes of equal standing: contested, never Attested.
    const split = [...one, attestationEvidence({ id: 'a2', witness: 'w2', verdict: 'dispute' }), attestationEvidence({ id: 'a3', witness: 'w3', verdict: 'dispute' })]
    expect(scoreWith(split, none).level_basis?.reason).toContain('contested')
    expect(scoreWith(split, none).level).toBe('Unverified')
    // Two confirms against one dispute: exactly twice, attested.
    const two = [attestationEvidence({ id: 'a1', witness: 'w1' }), attestationEvidence({ id: 'a4', witness: 'w4' }), attestationEvidence({ id: 'a2', witness: 'w2', verdict: 'dispute' })]
    expect(scoreWith(two, none).level).toBe('Attested')
  })
})

describe('isnad-reputation: the confirm record and the roots', () => {
  const memory = memoryEvidence({ author: 'A' })
  const base = { memory, anchors: [], reputation: (): number => 1, rooted: true, now: NOW }
  const score = (input: Partial<Parameters<typeof computeTrust>[0]> & { attestations: AttestationEvidence[] }): ReturnType<typeof computeTrust> =>
    computeTrust({ ...base, ...input }, { policy: 'isnad-reputation' })

  it('weighs a confirm by its witness\'s confirm record with the author, and a dispute by its reputation alone', () => {
    const asked: Array<[string, string, string]> = []
    const confirmRecord = (w: string, a: string, m: string): number => { asked.push([w, a, m]); return w === 'w1' ? 0.4 : 1 }
    const one = score({ attestations: [attestationEvidence({ id: 'a1', witness: 'w1' })], confirmRecord })
    expect(asked).toEqual([['w1', 'A', memory.id]])
    // C = 1 × 0.4 = 0.4 < MIN_CONFIRM_WEIGHT: not Attested; +0.2 × 0.4 = 0.08 of confirm points.
    expect(one.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.08)
    expect(one.level).toBe('Unverified')
    expect(one.counted.attestations[0]?.note).toBe('confirm weighted by reputation 1, × its confirm record with the author 0.4 = 0.4; discredited (record below 0.5): no witness for the level')
    // A partial is half of it: 0.5 × 1 × 0.4 = 0.2.
    const partial = score({ attestations: [attestationEvidence({ id: 'a1', witness: 'w1', verdict: 'partial' })], confirmRecord })
    expect(partial.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.04)
    // Beside a confirm of record 1 the dispute of w1 costs 0.15 × 1 whatever w1's confirm record.
    const dispute = score({ attestations: [attestationEvidence({ id: 'a1', witness: 'w1', verdict: 'dispute' })], confirmRecord })
    expect(dispute.contributions.find((c) => c.factor === 'disputes')?.points).toBe(-0.15)
  })

  it('never voids a root\'s confirm as agreeing with the author\'s circle alone', () => {
    const circle = (from: string, to: string): boolean => from === 'A' && (to === 'w1' || to === 'w2')
    const attestations = [attestationEvidence({ id: 'a1', witness: 'w1' }), attestationEvidence({ id: 'a2', witness: 'w2' }), attestationEvidence({ id: 'a3', witness: 'root' })]
    const notRoot = score({ attestations, endorses: circle })
    expect(notRoot.level).toBe('Unverified')
    const root = score({ attestations, endorses: circle, ownRequesters: (d) => d === 'root' })
    expect(root.counted.attestations.find((a) => a.witness === 'root')?.note).toBe('confirm weighted by reputation 1')
    expect(root.level).toBe('Attested')
  })
})

describe('isnad-reputation: discredited confirms (a record with the author below ½)', () => {
  const memory = memoryEvidence({ author: 'A' })
  const score = (attestations: AttestationEvidence[], rep: Record<string, number>, record: Record<string, number>): ReturnType<typeof computeTrust> =>
    computeTrust({ memory, attestations, anchors: [], reputation: (a) => rep[a] ?? 0, rooted: true, now: NOW, confirmRecord: (w) => record[w] ?? 1 }, { policy: 'isnad-reputation' })
  const confirmBy = (witnesses: string[]): AttestationEvidence[] => witnesses.map((w, i) => attestationEvidence({ id: `a${i}`, witness: w, at: T0 + minutes(1 + i) }))

  it('keeps a discredited confirm\'s weight in the points but not in the minimum a witness needs', () => {
    // Two confirms of reputation 1 and record 0.4: C = 0.8, +0.2 × min(1, 0.8) = 0.16 of points (as before),
    // but the confirms not discredited weigh 0 < MIN_CONFIRM_WEIGHT: Unverified, no witness counted.
    const result = score(confirmBy(['w1', 'w2']), { A: 0.5, w1: 1, w2: 1 }, { w1: 0.4, w2: 0.4 })
    expect(result.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.16)
    expect(result.level).toBe('Unverified')
    expect(result.level_basis?.reason).toMatch(/not discredited by their record with the author weigh 0 \(Σ reputation × record, a partial half\), below 0\.5/)
    // A record of exactly ½ is not discredited: 1 × 0.5 = 0.5 reaches the minimum.
    expect(score(confirmBy(['w1']), { A: 0.5, w1: 1 }, { w1: 0.5 }).level).toBe('Attested')
  })

  it('holds a memory below Attested when its discredited confirms weigh more than twice the others', () => {
    const rep = { A: 0.5, lazy: 0.7, c1: 0.4, c2: 0.4, c3: 0.4, c4: 0.4, c5: 0.4 }
    const record = { c1: 0.3, c2: 0.3, c3: 0.3, c4: 0.3, c5: 0.3 }
    // lazy (record 1) weighs 0.7 ≥ 0.5; five discredited confirms weigh 5 × 0.4 = 2.0 > 2 × 0.7 = 1.4.
    const five = score(confirmBy(['lazy', 'c1', 'c2', 'c3', 'c4', 'c5']), rep, record)
    // Points: C = 0.7 + 5 × 0.4 × 0.3 = 1.3: +0.2 and +0.1 × 0.3 / 2 = 0.015.
    expect(five.contributions.find((c) => c.factor === 'confirms')?.points).toBe(0.215)
    expect(five.level).toBe('Unverified')
    expect(five.level_basis?.reason).toMatch(/discredited witnesses carry it: confirms whose record with the author is below 0\.5 weigh 2 \(Σ reputation\), more than 2× the others' 0\.7/)
    // Three of them weigh 1.2 ≤ 1.4: Attested, and only lazy counts as a witness.
    const three = score(confirmBy(['lazy', 'c1', 'c2', 'c3']), rep, record)
    expect(three.level).toBe('Attested')
    expect(three.level_basis?.reason).toMatch(/1 confirm counts as a witness/)
  })
})
