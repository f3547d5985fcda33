import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeTrust, type AttestationEvidence, type KeyIdentities } from '../../../src/trust/index.js'
import { compareByTimeThenId, sortByTimeThenId } from '../../../src/trust/evidence-order.js'
import { NOW, T0, anchorEvidence, attestationEvidence, memoryEvidence, minutes } from './fixtures.js'

/*
 * The counting rules take shortcuts for the few pieces of evidence a memory usually has (an
 * insertion sort, a pairwise look for repeated witnesses, a lone anchor, reasons built once per
 * count): these check that every size on either side of a shortcut gives what the general path does.
 */

describe('sortByTimeThenId', () => {
  it('orders exactly as the stable Array.prototype.sort, below and above the insertion-sort bound (property)', () => {
    const item = fc.record({ at: fc.integer({ min: 0, max: 5 }), id: fc.constantFrom('a', 'b', 'c'), tag: fc.nat() })
    fc.assert(fc.property(fc.array(item, { maxLength: 40 }), (items) => {
      const expected = [...items].sort(compareByTimeThenId)
      const sorted = items.slice()
      expect(sortByTimeThenId(sorted)).toBe(sorted)
      // `tag` tells equal items apart: a stable sort keeps their input order.
      expect(sorted).toEqual(expected)
    }), { numRuns: 2000 })
  })
})

/** Witnesses w0…w(n−1); under `pairs`, w(2k) and w(2k+1) are two keys of one identity. */
function witnessSet (pairs: boolean): KeyIdentities {
  return {
    identityOf: (did) => pairs ? `id-${Math.floor(Number(did.slice(1)) / 2)}` : did,
    named: () => false,
    refusalAt: () => undefined,
    introducedAt: () => undefined
  }
}

function attestations (n: number, shuffle: number): AttestationEvidence[] {
  const list = Array.from({ length: n }, (_, i) => attestationEvidence({
    id: `a${String(i).padStart(2, '0')}`, witness: `w${i}`, at: T0 + minutes(1 + ((i * 7 + shuffle) % 11)), verdict: i % 3 === 2 ? 'dispute' : 'confirm'
  }))
  return list.reverse()
}

describe('counting many and few attestations', () => {
  it('one vote per identity at every size across the pairwise and set checks', () => {
    for (let n = 0; n <= 20; n++) {
      for (const pairs of [false, true]) {
        const result = computeTrust({ memory: memoryEvidence(), attestations: attestations(n, n), anchors: [], now: NOW, identities: witnessSet(pairs) })
        const identities = pairs ? Math.ceil(n / 2) : n
        expect(result.factors.witness_count, `n=${n} pairs=${String(pairs)}`).toBe(identities)
        expect(result.refused.attestations.every((r) => r.code === 'SUPERSEDED_BY_NEWER')).toBe(true)
        expect(result.refused.attestations).toHaveLength(n - identities)
        const ats = result.counted.attestations.map((a) => Date.parse(a.witnessed_at))
        expect(ats).toEqual([...ats].sort((x, y) => x - y))
      }
    }
  })

  it('gives the same result whatever order the evidence comes in', () => {
    const list = attestations(12, 3)
    const anchorsOf = [anchorEvidence({ id: 'k2', at: T0 + minutes(12) }), anchorEvidence({ id: 'k1', at: T0 + minutes(11), reference: 'https://example.org/k2' })]
    const one = computeTrust({ memory: memoryEvidence(), attestations: list, anchors: anchorsOf, now: NOW, identities: witnessSet(true) })
    const other = computeTrust({ memory: memoryEvidence(), attestations: [...list].reverse(), anchors: [...anchorsOf].reverse(), now: NOW, identities: witnessSet(true) })
    expect(other).toEqual(one)
    expect(one.counted.anchors.map((a) => a.id)).toEqual(['k1'])
    expect(one.refused.anchors).toMatchObject([{ id: 'k2', code: 'DUPLICATE_ANCHOR', duplicate_of: 'k1' }])
  })

  it('states each reason for its own count, at every count and on repeated calls', () => {
    for (const n of [0, 1, 2, 3, 4, 63, 64, 65]) {
      for (let round = 0; round < 2; round++) {
        const result = computeTrust({ memory: memoryEvidence(), attestations: attestations(n, 0), anchors: [], now: NOW })
        const confirms = result.factors.confirm_count
        const disputes = result.factors.dispute_count
        const reason = (factor: string): string => result.contributions.find((c) => c.factor === factor)?.reason ?? ''
        expect(reason('confirms')).toBe(confirms === 0 ? 'no accepted confirm (+0.2 for ≥1)' : confirms < 3 ? `${confirms} accepted confirm${confirms === 1 ? '' : 's'}: +0.2 for ≥1 (+0.1 more at ≥3)` : `${confirms} accepted confirms: +0.2 for ≥1, +0.1 for ≥3`)
        expect(reason('disputes')).toBe(disputes === 0 ? 'no accepted dispute (−0.15 each)' : `${disputes} accepted dispute${disputes === 1 ? '' : 's'} × −0.15`)
      }
    }
  })

  it('states the reputation of each call, and the time of each clock', () => {
    for (const reputation of [0.5, 0.5, 0.25, 0, 0.5]) {
      const result = computeTrust({ memory: memoryEvidence(), attestations: [], anchors: [], now: NOW + reputation, reputation: () => reputation })
      expect(result.contributions.find((c) => c.factor === 'author_reputation')?.reason).toBe(`0.2 × author reputation ${reputation}`)
      expect(result.computed_at).toBe(new Date(NOW + reputation).toISOString())
    }
  })
})
