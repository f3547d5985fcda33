import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TrustResultSchema, type AnchorState, type AttestationVerdict } from '../../../src/schema/index.js'
import {
  computeTrust, evidenceLevelOf, lowerLevel, trustLevelOf, type AnchorEvidence, type AttestationEvidence, type TrustInput
} from '../../../src/trust/index.js'
import {
  anchorEvidence, attestationEvidence, cid, CREATED, did, fixedReputation, memoryEvidence, minutes, NOW, T0
} from './fixtures.js'

/**
 * Properties of isnad-v0.1 over generated evidence. The generators deliberately produce evidence that
 * every counting rule refuses (bad signatures, other memories, the author as witness, timestamps
 * before the memory and after the clock, repeat witnesses, duplicate anchors, unverified anchors,
 * the very same record twice), with real did:keys and CIDs so every result also parses with
 * TrustResultSchema.
 */

const MEMORY = cid('mem')
const OTHER = cid('other')
const AUTHOR = did('author')
const WITNESSES = ['w0', 'w1', 'w2', 'w3'].map(did)
const IDS = Array.from({ length: 64 }, (_, i) => cid(`evidence-${i}`))

// Offsets are multiples of 10 minutes from created_at, -30 … +100: before the memory's 15-minute
// grace (-20, -30), ordinary, and past now + 15 min (now is +60, so +80 … +100), with ties.
const offset = fc.integer({ min: -3, max: 10 }).map((n) => T0 + minutes(10 * n))
const mostly = <T>(usual: T, rare: T): fc.Arbitrary<T> => fc.oneof({ arbitrary: fc.constant(usual), weight: 4 }, { arbitrary: fc.constant(rare), weight: 1 })

const attestationSpec = fc.record({
  witness: fc.constantFrom(...WITNESSES, AUTHOR),
  verdict: fc.constantFrom<AttestationVerdict>('confirm', 'dispute', 'partial'),
  at: offset,
  memory: mostly(MEMORY, OTHER),
  signatureValid: mostly(true, false)
})

const anchorSpec = fc.record({
  type: fc.constantFrom('url' as const, 'git_commit' as const),
  reference: fc.constantFrom('r0', 'r1', 'r2'),
  at: offset,
  memory: mostly(MEMORY, OTHER),
  signatureValid: mostly(true, false),
  state: fc.constantFrom<AnchorState>('verified', 'verified', 'verified', 'mismatch', 'unchecked')
})

/** Copies of records already in the list (same id and record), their signature flag maybe flipped. */
const copies = fc.array(fc.record({ index: fc.nat(), flip: fc.boolean() }), { maxLength: 3 })

function withCopies<T extends { signatureValid: boolean }> (items: T[], picks: Array<{ index: number, flip: boolean }>): T[] {
  if (items.length === 0) return items
  const extra = picks.map(({ index, flip }) => {
    const item = items[index % items.length] as T
    return { ...item, signatureValid: flip ? !item.signatureValid : item.signatureValid }
  })
  return [...items, ...extra]
}

const scenario: fc.Arbitrary<TrustInput> = fc.record({
  signatureValid: fc.boolean(),
  reputation: fc.double({ min: 0, max: 1, noNaN: true }),
  attestations: fc.array(attestationSpec, { maxLength: 12 }),
  anchors: fc.array(anchorSpec, { maxLength: 5 }),
  attestationCopies: copies,
  anchorCopies: copies
}).map((s) => ({
  memory: memoryEvidence({ id: MEMORY, author: AUTHOR, createdAt: CREATED, signatureValid: s.signatureValid }),
  attestations: withCopies(s.attestations.map((a, i): AttestationEvidence => attestationEvidence({ id: IDS[i] as string, ...a })), s.attestationCopies),
  anchors: withCopies(s.anchors.map((a, i): AnchorEvidence => anchorEvidence({ id: IDS[32 + i] as string, anchoredBy: did('anchorer'), ...a })), s.anchorCopies),
  reputation: fixedReputation(s.reputation),
  now: NOW
}))

/** A scenario and the same evidence in another order. */
const shuffled = scenario.chain((input) => fc.tuple(
  fc.constant(input),
  fc.shuffledSubarray([...input.attestations], { minLength: input.attestations.length, maxLength: input.attestations.length }),
  fc.shuffledSubarray([...input.anchors], { minLength: input.anchors.length, maxLength: input.anchors.length })
))

/** Dated at the latest instant allowed (now + 15 min), later than every counted attestation. */
function newest (witness: string, verdict: AttestationVerdict): AttestationEvidence {
  return attestationEvidence({ id: cid(`new-${verdict}`), witness, verdict, at: NOW + minutes(15), memory: MEMORY })
}

describe('isnad-v0.1 properties', () => {
  it('the order of attestations and anchors never changes the result', () => {
    fc.assert(fc.property(shuffled, ([input, attestations, anchors]) => {
      expect(computeTrust({ ...input, attestations, anchors }), 'shuffled evidence: the same result').toStrictEqual(computeTrust(input))
    }), { numRuns: 300 })
  })

  it('every result parses with TrustResultSchema, its contributions sum to it and its level matches', () => {
    fc.assert(fc.property(scenario, (input) => {
      const result = computeTrust(input)
      const parsed = TrustResultSchema.safeParse(result)
      expect(parsed.error, 'generated evidence: schema (incl. the contributions sum)').toBeUndefined()
      // The lower of the score band and the evidence band (isnad-v0.1 counts every counted confirm).
      const confirms = result.counted.attestations.filter((a) => a.verdict === 'confirm').length
      const evidenceLevel = evidenceLevelOf({ confirms, anchors: result.counted.anchors.length })
      expect(result.level, `generated evidence: level of ${result.score}`).toBe(lowerLevel(trustLevelOf(result.score), evidenceLevel))
      expect(result.level_basis?.evidence_level, 'generated evidence: evidence band').toBe(evidenceLevel)
      expect(result.counted.attestations.length + result.refused.attestations.length, 'generated evidence: every attestation accounted for')
        .toBe(input.attestations.length)
      expect(result.counted.anchors.length + result.refused.anchors.length, 'generated evidence: every anchor accounted for')
        .toBe(input.anchors.length)
      expect(new Set(result.counted.attestations.map((a) => a.witness)).size, 'generated evidence: one vote per witness')
        .toBe(result.counted.attestations.length)
    }), { numRuns: 300 })
  })

  it('adding a counted confirm never lowers the score', () => {
    fc.assert(fc.property(scenario, fc.constantFrom(...WITNESSES, did('newcomer')), (input, witness) => {
      const confirm = newest(witness, 'confirm')
      const after = computeTrust({ ...input, attestations: [...input.attestations, confirm] })
      expect(after.counted.attestations.map((a) => a.id), 'added confirm: counted').toContain(confirm.id)
      expect(after.score, 'added confirm: score').toBeGreaterThanOrEqual(computeTrust(input).score)
    }), { numRuns: 300 })
  })

  it('adding a counted dispute never raises the score', () => {
    fc.assert(fc.property(scenario, fc.constantFrom(...WITNESSES, did('newcomer')), (input, witness) => {
      const dispute = newest(witness, 'dispute')
      const after = computeTrust({ ...input, attestations: [...input.attestations, dispute] })
      expect(after.counted.attestations.map((a) => a.id), 'added dispute: counted').toContain(dispute.id)
      expect(after.score, 'added dispute: score').toBeLessThanOrEqual(computeTrust(input).score)
    }), { numRuns: 300 })
  })

  it('adding refused evidence never changes the score', () => {
    fc.assert(fc.property(scenario, fc.constantFrom<AttestationVerdict>('confirm', 'dispute'), (input, verdict) => {
      const forged = { ...newest(WITNESSES[0] as string, verdict), signatureValid: false }
      const selfConfirm = newest(AUTHOR, 'confirm')
      const after = computeTrust({ ...input, attestations: [...input.attestations, forged, selfConfirm] })
      expect(after.score, `forged ${verdict} and self-confirm: score`).toBe(computeTrust(input).score)
    }), { numRuns: 200 })
  })
})
