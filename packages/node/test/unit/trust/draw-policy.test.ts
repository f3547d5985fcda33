import { describe, expect, it } from 'vitest'
import { computeTrust, type AttestationEvidence, type KeyIdentities, type ReputationLookup, type WitnessRequestEvidence } from '../../../src/trust/index.js'
import { ownRequestersOf } from '../../../src/reputation/index.js'
import { attestationEvidence, iso, memoryEvidence, NOW, T0, minutes } from './fixtures.js'

/*
 * Policy `isnad-draw` (docs/trust.md §5a), its private checks: with no drawn witness, only a confirm
 * by a witness the node asked itself — a request by one of its own requesters (agents, roots),
 * addressed to that witness, made before the verdict — makes a memory Attested; the author's own witnesses corroborate up to as much
 * as the independent ones weigh. Every figure below is computed by hand from the steps:
 * +0.2 signature, +0.2·min(1, C) + 0.1·min(1, (C − 1)/2), +0.2·rep(author), −0.15·Σ rep(disputer).
 */

const full: ReputationLookup = (agent) => agent === 'author' ? 0.5 : 1
const own = (did: string): boolean => did === 'node' || did === 'root'

function request (id: string, witnesses: string[] | undefined, { requester = 'node', at = T0 + minutes(1), memory = 'mem', signatureValid = true } = {}): WitnessRequestEvidence {
  return {
    id,
    record: { kind: 'witness_request', version: 1, memory, requester, ...(witnesses === undefined ? {} : { witnesses }), created_at: iso(at) },
    signatureValid
  }
}

function chosen (n: number, prefix = 'c'): AttestationEvidence[] {
  return Array.from({ length: n }, (_, i) => attestationEvidence({ id: `${prefix}${i}`, witness: `${prefix}-witness-${i}` }))
}

function score (attestations: AttestationEvidence[], requests: WitnessRequestEvidence[], policy: 'isnad-draw' | 'isnad-reputation' = 'isnad-draw', extra: { identities?: KeyIdentities, memory?: ReturnType<typeof memoryEvidence> } = {}): ReturnType<typeof computeTrust> {
  return computeTrust({
    memory: extra.memory ?? memoryEvidence(),
    attestations,
    anchors: [],
    requests,
    ownRequesters: own,
    reputation: full,
    now: NOW,
    ...(extra.identities === undefined ? {} : { identities: extra.identities })
  }, { policy })
}

const points = (result: ReturnType<typeof computeTrust>, factor: string): number | undefined => result.contributions.find((c) => c.factor === factor)?.points

describe('isnad-draw, witnesses this node asked', () => {
  it('leaves a memory confirmed only by witnesses its author chose Unverified, where isnad-reputation attests it', () => {
    const result = score(chosen(3), [])
    // C = 0 + min(3, 0) = 0: 0.2 signature + 0 + 0.2 × 0.5 author = 0.3.
    expect(result.points).toBe(0.3)
    expect(points(result, 'confirms')).toBe(0)
    expect(result.level).toBe('Unverified')
    expect(result.level_basis?.set_by).toBe('evidence')
    expect(result.level_basis?.reason).toMatch(/no witness the author did not choose/)
    // The same evidence under isnad-reputation: C = 3, 0.2 + 0.3 + 0.1 = 0.6, Attested by evidence.
    const reputation = score(chosen(3), [], 'isnad-reputation')
    expect(reputation.points).toBe(0.6)
    expect(reputation.level).toBe('Attested')
  })

  it('attests a memory through a witness the node asked, and lets the author\'s witnesses corroborate up to its weight', () => {
    const asked = attestationEvidence({ id: 'i0', witness: 'drawn', at: T0 + minutes(5) })
    const result = score([asked, ...chosen(2)], [request('r1', ['drawn'])])
    // I = 1, O = 2: C = 1 + min(2, 1) = 2 → 0.2 + 0.1 × (2 − 1)/2 = 0.25; 0.2 + 0.25 + 0.1 = 0.55.
    expect(points(result, 'confirms')).toBe(0.25)
    expect(result.points).toBe(0.55)
    expect(result.level).toBe('Attested')
    // One independent confirm and one of the author's witnesses it backs.
    expect(result.level_basis?.reason).toMatch(/2 confirms count as witnesses/)
    expect(result.counted.attestations.find((a) => a.id === 'i0')?.note).toMatch(/asked by this node/)
    expect(result.counted.attestations.find((a) => a.id === 'c0')?.note).toMatch(/chosen by the author/)
  })

  it('counts a confirm as independent only after an addressed request by the node\'s own requester, not the author', () => {
    const asked = attestationEvidence({ id: 'i0', witness: 'drawn', at: T0 + minutes(5) })
    const cases: Array<[string, WitnessRequestEvidence]> = [
      ['a request made after the verdict', request('r', ['drawn'], { at: T0 + minutes(6) })],
      ['a stranger\'s request', request('r', ['drawn'], { requester: 'stranger' })],
      ['an open request (names nobody)', request('r', undefined)],
      ['a request for another memory', request('r', ['drawn'], { memory: 'other' })],
      ['a request whose signature fails', request('r', ['drawn'], { signatureValid: false })]
    ]
    for (const [label, r] of cases) {
      const result = score([asked], [r])
      // I = 0: C = 0, 0.2 + 0.1 = 0.3, Unverified by evidence.
      expect(result.points, label).toBe(0.3)
      expect(result.level, label).toBe('Unverified')
    }
    // A request made at the very instant of the verdict counts (created_at ≤ witnessed_at).
    expect(score([asked], [request('r', ['drawn'], { at: T0 + minutes(5) })]).level).toBe('Attested')
    // The node's own agent authored the memory: its own request chooses its witnesses like any author's.
    const ownMemory = memoryEvidence({ author: 'node' })
    expect(score([asked], [request('r', ['drawn'])], 'isnad-draw', { memory: ownMemory }).level).toBe('Unverified')
  })

  it('lets an independent dispute of like weight block Attested; two independent confirms outweigh one', () => {
    const requests = [request('r1', ['w1', 'w2', 'w3'])]
    const confirm1 = attestationEvidence({ id: 'i1', witness: 'w1' })
    const dispute2 = attestationEvidence({ id: 'i2', witness: 'w2', verdict: 'dispute' })
    const blocked = score([confirm1, dispute2, ...chosen(2)], requests)
    // I = 1, DI = 1: 1 < 2 × 1. C = 1 + min(2, 1) = 2 → 0.25; 0.2 + 0.25 + 0.1 − 0.15 = 0.4 (Attested band).
    expect(blocked.points).toBe(0.4)
    expect(blocked.level).toBe('Unverified')
    expect(blocked.level_basis?.reason).toMatch(/the witnesses the author did not choose disagree/)
    const confirm3 = attestationEvidence({ id: 'i3', witness: 'w3' })
    const outweighed = score([confirm1, dispute2, confirm3], requests)
    // I = 2, DI = 1: 2 ≥ 2. C = 2 → 0.25; 0.2 + 0.25 + 0.1 − 0.15 = 0.4.
    expect(outweighed.points).toBe(0.4)
    expect(outweighed.level).toBe('Attested')
  })

  it('weighs the author\'s witnesses\' disputes against every confirm (the overall margin)', () => {
    const asked = attestationEvidence({ id: 'i0', witness: 'drawn' })
    const disputes = [attestationEvidence({ id: 'd0', witness: 'x0', verdict: 'dispute' }), attestationEvidence({ id: 'd1', witness: 'x1', verdict: 'dispute' })]
    const result = score([asked, ...disputes], [request('r', ['drawn'])])
    // I = 1, DI = 0, D = 2: C = 1 < 2 × 2. 0.2 + 0.2 + 0.1 − 0.3 = 0.2.
    expect(result.points).toBe(0.2)
    expect(result.level).toBe('Unverified')
    expect(result.level_basis?.reason).toMatch(/contested/)
  })

  it('matches witnesses by identity: a request to one device key covers the identity\'s other key', () => {
    const identities: KeyIdentities = { identityOf: (d) => d.startsWith('w-') ? 'w' : d, named: (d) => d.startsWith('w-'), refusalAt: () => undefined, introducedAt: () => undefined }
    const byLaptop = attestationEvidence({ id: 'i0', witness: 'w-laptop' })
    expect(score([byLaptop], [request('r', ['w-phone'])], 'isnad-draw', { identities }).level).toBe('Attested')
    expect(score([byLaptop], [request('r', ['w-phone'])]).level).toBe('Unverified')
  })
})

describe('ownRequestersOf', () => {
  it('takes the roots, by key and by identity', () => {
    const identities: KeyIdentities = { identityOf: (d) => d === 'root-phone' ? 'root' : d, named: () => true, refusalAt: () => undefined, introducedAt: () => undefined }
    expect(ownRequestersOf(['root'])('root')).toBe(true)
    expect(ownRequestersOf(['root'])('root-phone')).toBe(false)
    expect(ownRequestersOf(['root'], identities)('root-phone')).toBe(true)
    expect(ownRequestersOf(['root'], identities)('stranger')).toBe(false)
  })
})
