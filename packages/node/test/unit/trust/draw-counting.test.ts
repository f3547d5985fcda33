import { sha256 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { proveDraw, verifyDraw } from '../../../src/draw/index.js'
import { encodeDidKey, keyPairFromSeed } from '../../../src/identity/index.js'
import { encodeSignature } from '../../../src/record/index.js'
import { ownRequestersOf } from '../../../src/reputation/index.js'
import { TrustResultSchema, type AttestationVerdict } from '../../../src/schema/index.js'
import {
  computeTrust, DRAWN_DISPUTE_MIN, getTrustPolicy, type AttestationEvidence, type KeyIdentities, type PrivateCheckState, type ReputationLookup,
  type TrustInput, type WitnessRequestEvidence
} from '../../../src/trust/index.js'
import { attestationEvidence, cid, CREATED, did, iso, memoryEvidence, minutes, NOW, T0 } from './fixtures.js'

/*
 * Counting under isnad-draw (docs/trust.md §5a) with real ECVRF draws (src/draw, fixed seeds): an
 * accepted attestation is drawn iff its draw verified for this memory, its fraction is below
 * size / population (5 / population) and its population is at least the node's estimate / 2.
 * Every figure is computed by hand from isnad-draw's steps: +0.2 signature,
 * +0.2·min(1, C) + 0.1·min(1, (C − 1)/2) with C = I + min(O, I), +0.2·rep(author), −0.15·Σ rep(disputer).
 * Reputation: the author 0.5, every witness 1 (rooted).
 */

const utf8 = new TextEncoder()
const MEMORY = cid('drawn-memory')
const OTHER_MEMORY = cid('another-memory')
const AUTHOR = did('author')
const ESTIMATE = 10
const full: ReputationLookup = (agent) => agent === AUTHOR ? 0.5 : 1

interface Witness { seed: Uint8Array, did: string, publicKey: Uint8Array }

function witness (label: string): Witness {
  const seed = sha256(utf8.encode(`witness:${label}`))
  const { publicKey } = keyPairFromSeed(seed)
  return { seed, did: encodeDidKey(publicKey), publicKey }
}

/** The first witness (by label `prefix0`, `prefix1`, …) whose draw for MEMORY at `population` is (or is not) drawn. */
function witnessWhere (prefix: string, population: number, drawn: boolean): Witness {
  for (let i = 0; i < 200; i++) {
    const w = witness(`${prefix}${i}`)
    if (proveDraw(w.seed, MEMORY, population).drawn === drawn) return w
  }
  throw new Error(`no witness ${prefix}* with drawn = ${String(drawn)} at ${population}`)
}

/** `count` distinct witnesses (labels `prefix0`, `prefix1`, …) drawn for MEMORY at ESTIMATE. */
function drawnWitnesses (prefix: string, count: number): Witness[] {
  const found: Witness[] = []
  for (let i = 0; i < 400 && found.length < count; i++) {
    const w = witness(`${prefix}${i}`)
    if (proveDraw(w.seed, MEMORY, ESTIMATE).drawn) found.push(w)
  }
  if (found.length < count) throw new Error(`only ${found.length} witnesses ${prefix}* drawn at ${ESTIMATE}`)
  return found
}

/**
 * An attestation of MEMORY by `w` with a draw at `population` proved for `proofFor`, its fraction
 * set as a verifier sets it: verifyDraw under the witness's key for the attested memory.
 */
function drawnAttestation (id: string, w: Witness, population: number, { verdict = 'confirm' as AttestationVerdict, proofFor = MEMORY } = {}): AttestationEvidence {
  const { proof } = proveDraw(w.seed, proofFor, population)
  const evidence = attestationEvidence({ id: cid(id), witness: w.did, verdict, memory: MEMORY })
  evidence.record.draw = { population, proof: encodeSignature(proof) }
  const fraction = verifyDraw(w.publicKey, MEMORY, proof)
  return fraction === undefined ? evidence : { ...evidence, drawFraction: fraction }
}

function score (attestations: AttestationEvidence[], extra: Partial<TrustInput> = {}): ReturnType<typeof computeTrust> {
  const result = computeTrust({
    memory: memoryEvidence({ id: MEMORY, author: AUTHOR }),
    attestations,
    anchors: [],
    reputation: full,
    populationEstimate: ESTIMATE,
    now: NOW,
    ...extra
  }, { policy: 'isnad-draw' })
  expect(TrustResultSchema.safeParse(result).success).toBe(true)
  return result
}

const noteOf = (result: ReturnType<typeof computeTrust>, id: string): string | undefined => result.counted.attestations.find((a) => a.id === id)?.note

describe('isnad-draw: which witnesses are drawn for a memory', () => {
  const drawnAt10 = witnessWhere('d', ESTIMATE, true)
  const notDrawnAt10 = witnessWhere('n', ESTIMATE, false)

  it('a drawn confirm makes the memory Attested, with the note and the explanation saying it was drawn', () => {
    const a = drawnAttestation('a', drawnAt10, ESTIMATE)
    expect(a.drawFraction).toBeLessThan(5 / ESTIMATE)
    const result = score([a])
    // I = 1, O = 0, C = 1: 0.2 + 0.2 + 0 + 0.2 × 0.5 = 0.5.
    expect(result.points).toBe(0.5)
    expect(result.level).toBe('Attested')
    expect(noteOf(result, a.id)).toBe('confirm weighted by reputation 1; witness drawn for this memory')
    expect(result.witness_selection).toEqual({
      population_estimate: ESTIMATE, drawn: 1, asked: 0, unweighted: 0,
      reason: '1 drawn witness answered (population estimate 10); no private check by this node'
    })
  })

  it('a draw whose fraction is not below size / population does not count: the witness is the author\'s', () => {
    const a = drawnAttestation('a', notDrawnAt10, ESTIMATE)
    expect(a.drawFraction).toBeGreaterThanOrEqual(5 / ESTIMATE)
    const result = score([a])
    // I = 0, O = 1, C = 0 + min(1, 0) = 0: 0.2 + 0 + 0.1 = 0.3, Unverified by the evidence.
    expect(result.points).toBe(0.3)
    expect(result.level).toBe('Unverified')
    expect(noteOf(result, a.id)).toMatch(/^confirm weighted by reputation 1; witness chosen by the author or unasked \(its draw fraction 0\.\d+ is not below 5 \/ 10\)$/)
    expect(result.level_basis?.reason).toMatch(/no witness the author did not choose/)
    expect(result.witness_selection?.reason).toBe('no drawn witness answered (population estimate 10); no private check by this node')
  })

  it('a population below the node\'s estimate / 2 does not count, even where it draws the witness', () => {
    // Drawn at its own claim of 10 (u < 0.5), but this node estimates 100: 10 × 2 < 100.
    const a = drawnAttestation('a', drawnAt10, ESTIMATE)
    const result = score([a], { populationEstimate: 100 })
    expect(result.points).toBe(0.3)
    expect(result.level).toBe('Unverified')
    expect(noteOf(result, a.id)).toContain('its draw claims a population of 10, below this node\'s estimate 100 / 2')
    // At the edge: 10 × 2 = 20 ≥ 20 is accepted.
    expect(score([a], { populationEstimate: 20 }).level).toBe('Attested')
  })

  it('a proof made for another memory does not verify for this one, and does not count', () => {
    const a = drawnAttestation('a', drawnAt10, ESTIMATE, { proofFor: OTHER_MEMORY })
    expect(a.drawFraction).toBeUndefined()
    const result = score([a])
    expect(result.points).toBe(0.3)
    expect(result.level).toBe('Unverified')
    expect(noteOf(result, a.id)).toContain('its draw proof was not verified for this memory')
  })

  it('a draw signed by a key its log refuses (revoked) does not count: the attestation itself is refused', () => {
    const a = drawnAttestation('a', drawnAt10, ESTIMATE)
    const identities: KeyIdentities = {
      identityOf: (d) => d,
      named: (d) => d === drawnAt10.did,
      refusalAt: (d) => d === drawnAt10.did ? 'KEY_REVOKED' : undefined,
      introducedAt: () => undefined
    }
    const result = score([a], { identities })
    expect(result.refused.attestations.map((r) => r.code)).toEqual(['KEY_NOT_VALID'])
    // Only the signature and the author's reputation: 0.2 + 0.1.
    expect(result.points).toBe(0.3)
    expect(result.level).toBe('Unverified')
    expect(result.witness_selection?.drawn).toBe(0)
  })

  describe('W11: a draw counts only by a key its identity had before the memory was created', () => {
    // drawnAt10's key is a device key delegated by identity W; the memory was created at T0, the
    // attestation made at T0 + 5 min. Only when the delegation came in (its own created_at) changes.
    const W = did('identity-w')
    const delegatedAt = (introduced: number): KeyIdentities => ({
      identityOf: (d) => d === drawnAt10.did ? W : d,
      named: (d) => d === drawnAt10.did || d === W,
      refusalAt: () => undefined,
      introducedAt: (d) => d === drawnAt10.did ? introduced : d === W ? -Infinity : undefined
    })

    it('a key delegated after the memory does not count as drawn: it could have been ground to be drawn', () => {
      const a = drawnAttestation('a', drawnAt10, ESTIMATE)
      const result = score([a], { identities: delegatedAt(T0 + minutes(1)) })
      // The attestation is accepted (the key could sign at T0 + 5 min) but is the author's: I = 0, O = 1,
      // C = 0: 0.2 + 0 + 0.1 = 0.3, Unverified by the evidence.
      expect(result.refused.attestations).toEqual([])
      expect(result.points).toBe(0.3)
      expect(result.level).toBe('Unverified')
      expect(result.witness_selection?.drawn).toBe(0)
      expect(noteOf(result, a.id)).toBe(
        'confirm weighted by reputation 1; witness chosen by the author or unasked (its draw is by a key its identity\'s key log ' +
        `introduced at ${iso(T0 + minutes(1))}, not before the memory was created (${CREATED}): ` +
        'a key chosen after a memory can be ground to be drawn)'
      )
    })

    it('a key delegated at the memory\'s own instant does not count either: "before" is strict', () => {
      const a = drawnAttestation('a', drawnAt10, ESTIMATE)
      expect(score([a], { identities: delegatedAt(T0) }).witness_selection?.drawn).toBe(0)
    })

    it('a key delegated before the memory counts as drawn, as does an inception key and a key no log names', () => {
      const a = drawnAttestation('a', drawnAt10, ESTIMATE)
      const before = score([a], { identities: delegatedAt(T0 - 1) })
      expect(before.level).toBe('Attested')
      expect(before.points).toBe(0.5)
      expect(noteOf(before, a.id)).toBe('confirm weighted by reputation 1; witness drawn for this memory')
      expect(score([a], { identities: delegatedAt(-Infinity) }).level).toBe('Attested')
      const unnamed: KeyIdentities = { identityOf: (d) => d, named: () => false, refusalAt: () => undefined, introducedAt: () => undefined }
      expect(score([a], { identities: unnamed }).level).toBe('Attested')
    })
  })

  it('an honest drawn witness\'s dispute blocks Attested against a drawn colluder\'s confirm', () => {
    const honest = witnessWhere('h', ESTIMATE, true)
    const confirm = drawnAttestation('a', drawnAt10, ESTIMATE)
    const dispute = drawnAttestation('b', honest, ESTIMATE, { verdict: 'dispute' })
    const result = score([confirm, dispute])
    // I = 1, DI = 1: 0.2 + 0.2 + 0.1 − 0.15 = 0.35, in the Attested band; the drawn dispute (1 ≥ 0.5) blocks it.
    expect(result.points).toBe(0.35)
    expect(result.level).toBe('Unverified')
    expect(result.level_basis?.reason).toContain('a drawn witness of reputation 1 disputes: drawn disputes block Attested because grinding can add drawn confirms but cannot remove honest drawn witnesses')
    expect(noteOf(result, dispute.id)).toBe('dispute weighted by reputation 1; witness drawn for this memory')
    expect(result.witness_selection?.drawn).toBe(2)
  })

  describe('a drawn dispute blocks Attested whatever the drawn confirms weigh (grinding adds drawn confirms, never removes honest drawn witnesses)', () => {
    // Six drawn colluders confirm at reputation 0.4 (what an author that grinds its memory's bytes
    // gets drawn); the drawn disputes' weight DD must stay below MIN_CONFIRM_WEIGHT (0.5).
    const colluders = drawnWitnesses('g', 6)
    const [honest, second] = drawnWitnesses('h', 2) as [Witness, Witness]
    const confirms = colluders.map((w, i) => drawnAttestation(`g${i}`, w, ESTIMATE))
    const repOf = (reps: Map<string, number>): ReputationLookup => (agent) => agent === AUTHOR ? 0.5 : reps.get(agent) ?? 0.4

    it('six drawn confirms of 0.4 against one drawn dispute of 0.6: not Attested, and the reason says what blocked', () => {
      const dispute = drawnAttestation('h0', honest, ESTIMATE, { verdict: 'dispute' })
      const result = score([...confirms, dispute], { reputation: repOf(new Map([[honest.did, 0.6]])) })
      // I = 2.4 ≥ 2 × 0.6 and C = 2.4 ≥ 2 × 0.6: the margins alone would attest it. DD = 0.6 ≥ 0.5 blocks.
      // 0.2 + (0.2 + 0.1 × 0.7) + 0.2 × 0.5 − 0.15 × 0.6 = 0.2 + 0.27 + 0.1 − 0.09 = 0.48, in the Attested band.
      expect(result.points).toBe(0.48)
      expect(result.level).toBe('Unverified')
      expect(result.level_basis?.set_by).toBe('evidence')
      expect(result.level_basis?.reason).toContain('a drawn witness of reputation 0.6 disputes: drawn disputes block Attested because grinding can add drawn confirms but cannot remove honest drawn witnesses')
      expect(result.witness_selection?.drawn).toBe(7)
    })

    it('drawn disputes add up: two of 0.3 (0.6 in all) block as one of 0.6 does', () => {
      const disputes = [drawnAttestation('h0', honest, ESTIMATE, { verdict: 'dispute' }), drawnAttestation('h1', second, ESTIMATE, { verdict: 'dispute' })]
      const result = score([...confirms, ...disputes], { reputation: repOf(new Map([[honest.did, 0.3], [second.did, 0.3]])) })
      // Same score as above: the disputes cost 0.15 × 0.6 = 0.09 → 0.48.
      expect(result.points).toBe(0.48)
      expect(result.level).toBe('Unverified')
      expect(result.level_basis?.reason).toContain('2 drawn witnesses of reputation 0.6 in all dispute: drawn disputes block Attested')
    })

    it('a drawn dispute below the threshold does not block: 0.4 < 0.5, and the margins hold', () => {
      const dispute = drawnAttestation('h0', honest, ESTIMATE, { verdict: 'dispute' })
      const result = score([...confirms, dispute], { reputation: repOf(new Map([[honest.did, 0.4]])) })
      // I = 2.4 ≥ 2 × 0.4: 0.2 + 0.27 + 0.1 − 0.06 = 0.51, Attested; six counted confirms.
      expect(result.points).toBe(0.51)
      expect(result.level).toBe('Attested')
      expect(result.level_basis?.reason).toMatch(/6 confirms count as witnesses/)
    })

    it('a dispute by a witness the author chose (not drawn) does not block by this rule: only the margins weigh it', () => {
      const chosen = attestationEvidence({ id: cid('x0'), witness: did('chosen-disputer'), verdict: 'dispute', memory: MEMORY })
      const result = score([...confirms, chosen], { reputation: repOf(new Map([[did('chosen-disputer'), 0.6]])) })
      // DD = 0, DO = 0.6: C = 2.4 ≥ 2 × 0.6. 0.2 + 0.27 + 0.1 − 0.09 = 0.48, Attested.
      expect(result.points).toBe(0.48)
      expect(result.level).toBe('Attested')
      expect(noteOf(result, chosen.id)).toBe('dispute weighted by reputation 0.6; witness chosen by the author or unasked')
    })
  })

  it('the author\'s witnesses corroborate a drawn confirm up to its weight', () => {
    const drawn = drawnAttestation('a', drawnAt10, ESTIMATE)
    const chosen = [1, 2, 3].map((i) => attestationEvidence({ id: cid(`c${i}`), witness: did(`chosen-${i}`), memory: MEMORY }))
    const result = score([drawn, ...chosen])
    // I = 1, O = 3, C = 1 + min(3, 1) = 2: 0.2 + 0.2 + 0.05 + 0.1 = 0.55; counted confirms 1 + 1 = 2.
    expect(result.points).toBe(0.55)
    expect(result.level).toBe('Attested')
  })

  it('without a population estimate no draw counts, and the explanation says why', () => {
    const a = drawnAttestation('a', drawnAt10, ESTIMATE)
    const result = computeTrust({ memory: memoryEvidence({ id: MEMORY, author: AUTHOR }), attestations: [a], anchors: [], reputation: full, now: NOW }, { policy: 'isnad-draw' })
    expect(result.level).toBe('Unverified')
    expect(result.witness_selection?.reason).toBe('no drawn witness counts: this node gave no population estimate; no private check by this node')
    expect(result.witness_selection?.population_estimate).toBeUndefined()
  })

  it('a population below size draws everybody (a small network)', () => {
    const a = drawnAttestation('a', notDrawnAt10, 4)
    expect(score([a], { populationEstimate: 4 }).level).toBe('Attested')
  })
})

describe('isnad-draw: what the explanation says of private checks', () => {
  const own = ownRequestersOf([did('node')])
  const asked = witness('asked')

  function request (witnesses: string[]): WitnessRequestEvidence {
    return {
      id: cid('request'),
      record: { kind: 'witness_request', version: 1, memory: MEMORY, requester: did('node'), witnesses, created_at: iso(T0 + minutes(1)) },
      signatureValid: true
    }
  }

  it.each<[PrivateCheckState | undefined, string]>([
    ['not-sampled', 'no drawn witness answered (population estimate 10); no private check by this node (not sampled)'],
    ['asked', 'no drawn witness answered (population estimate 10); this node made a private check, not answered yet'],
    [undefined, 'no drawn witness answered (population estimate 10); no private check by this node']
  ])('with no answer and privateCheck %s: %s', (privateCheck, reason) => {
    const chosen = attestationEvidence({ id: cid('c'), witness: did('chosen'), memory: MEMORY })
    const result = score([chosen], privateCheck === undefined ? {} : { privateCheck })
    expect(result.level).toBe('Unverified')
    expect(result.witness_selection?.reason).toBe(reason)
    expect(result.witness_selection?.private_check).toBe(privateCheck)
  })

  it('a privately asked witness\'s confirm makes the memory Attested at the node that asked, noted "asked by this node"', () => {
    const a = attestationEvidence({ id: cid('p'), witness: asked.did, memory: MEMORY, at: T0 + minutes(5) })
    const result = score([a], { requests: [request([asked.did])], ownRequesters: own, privateCheck: 'asked' })
    expect(result.points).toBe(0.5)
    expect(result.level).toBe('Attested')
    expect(noteOf(result, a.id)).toBe('confirm weighted by reputation 1; witness asked by this node')
    expect(result.witness_selection).toMatchObject({ drawn: 0, asked: 1, private_check: 'asked' })
    expect(result.witness_selection?.reason).toBe('no drawn witness answered (population estimate 10); this node made a private check: 1 witness it asked answered')
  })

  it('says when the witnesses the author did not choose weigh nothing at this node', () => {
    const a = drawnAttestation('a', witnessWhere('d', ESTIMATE, true), ESTIMATE)
    const result = score([a], { reputation: (agent) => agent === AUTHOR ? 0.5 : 0 })
    expect(result.witness_selection?.unweighted).toBe(1)
    expect(result.witness_selection?.reason).toContain('1 of the witnesses the author did not choose weigh nothing here')
  })
})

describe('isnad-reputation: the drawn witnesses weigh on their own', () => {
  const drawn = drawnWitnesses('m', 3)
  const chosen = (n: number): AttestationEvidence[] => Array.from({ length: n }, (_, i) => attestationEvidence({ id: cid(`chosen${i}`), witness: did(`chosen${i}`), verdict: 'confirm', memory: MEMORY }))
  const reputationScore = (attestations: AttestationEvidence[]): ReturnType<typeof computeTrust> => computeTrust({
    memory: memoryEvidence({ id: MEMORY, author: AUTHOR }), attestations, anchors: [], reputation: full, populationEstimate: ESTIMATE, endorses: () => false, now: NOW
  }, { policy: 'isnad-reputation' })

  it('the witnesses the author chose do not make a memory Attested when its drawn disputes outweigh its drawn confirms', () => {
    // C = 3 chosen, D = 1 drawn: the margins over all witnesses hold (3 ≥ 2 × 1), but the drawn
    // witnesses say 0 against 1. Points 0.2 + 0.3 + 0.2 × 0.5 − 0.15 = 0.45, held at Unverified.
    const result = reputationScore([...chosen(3), drawnAttestation('d0', drawn[1] as Witness, ESTIMATE, { verdict: 'dispute' })])
    expect(result.points).toBe(0.45)
    expect(result.level).toBe('Unverified')
    expect(result.score).toBe(0.2999)
    expect(result.level_basis?.reason).toContain('the drawn witnesses dispute it: the disputes of witnesses drawn for this memory weigh 1, more than their confirms (0), and the witnesses its author chose do not outvote the draw')
  })

  it('a drawn confirm against a drawn dispute of equal weight, or no drawn dispute, leaves the memory Attested', () => {
    const even = reputationScore([...chosen(3), drawnAttestation('c0', drawn[0] as Witness, ESTIMATE), drawnAttestation('d0', drawn[1] as Witness, ESTIMATE, { verdict: 'dispute' })])
    expect(even.level).toBe('Attested')
    const undrawnDispute = attestationEvidence({ id: cid('d-chosen'), witness: did('chosen-disputer'), verdict: 'dispute', memory: MEMORY })
    expect(reputationScore([...chosen(3), undrawnDispute]).level).toBe('Attested')
  })

  it('drawn disputes lighter than DRAWN_DISPUTE_MIN (a debited Sybil) do not outweigh the absence of a drawn confirm', () => {
    const disputer = drawn[1] as Witness
    const score = (weight: number): ReturnType<typeof computeTrust> => computeTrust({
      memory: memoryEvidence({ id: MEMORY, author: AUTHOR }),
      attestations: [...chosen(3), drawnAttestation('d0', disputer, ESTIMATE, { verdict: 'dispute' })],
      anchors: [],
      reputation: (key) => key === disputer.did ? weight : 1,
      populationEstimate: ESTIMATE,
      endorses: () => false,
      now: NOW
    }, { policy: 'isnad-reputation' })
    expect(DRAWN_DISPUTE_MIN).toBe(0.1)
    expect(score(0.09).level).toBe('Attested')
    expect(score(0.1).level).toBe('Unverified')
    expect(score(0.1).level_basis?.reason).toContain('the drawn witnesses dispute it')
  })
})

describe('the policy\'s name', () => {
  it('isnad-spot-check, a former name, reads as isnad-draw', () => {
    expect(getTrustPolicy('isnad-spot-check').name).toBe('isnad-draw')
    expect(getTrustPolicy('isnad-draw').name).toBe('isnad-draw')
  })
})

describe('isnad-draw: properties over generated draws', () => {
  const WITNESSES = Array.from({ length: 6 }, (_, i) => did(`generated-${i}`))
  const spec = fc.record({
    witness: fc.constantFrom(...WITNESSES),
    verdict: fc.constantFrom<AttestationVerdict>('confirm', 'dispute', 'partial'),
    draw: fc.option(fc.record({ population: fc.integer({ min: 1, max: 60 }), fraction: fc.option(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { nil: undefined }) }), { nil: undefined })
  })
  const input = fc.record({ specs: fc.array(spec, { maxLength: 8 }), estimate: fc.option(fc.integer({ min: 0, max: 80 }), { nil: undefined }) })

  /** u < 5 / population, exactly (witness-draw-v1: the fraction is m / 2^53). */
  const below = (fraction: number, population: number): boolean => BigInt(Math.floor(fraction * 2 ** 53)) * BigInt(population) < 5n * 2n ** 53n

  /** Evidence with the draw's fraction given as a verifier gives it (absent: the proof did not verify). */
  function evidenceOf (specs: Array<typeof spec extends fc.Arbitrary<infer T> ? T : never>): AttestationEvidence[] {
    return specs.map((s, i) => {
      const a = attestationEvidence({ id: cid(`g${i}`), witness: s.witness, verdict: s.verdict, memory: MEMORY, at: T0 + minutes(5 + i) })
      if (s.draw === undefined) return a
      a.record.draw = { population: s.draw.population, proof: encodeSignature(new Uint8Array(80)) }
      return s.draw.fraction === undefined ? a : { ...a, drawFraction: s.draw.fraction }
    })
  }

  it('counts as drawn exactly the newest attestations with a verified fraction below 5 / population and population × 2 ≥ N̂, in any order', () => {
    fc.assert(fc.property(input, fc.infiniteStream(fc.nat()), ({ specs, estimate }, randoms) => {
      const attestations = evidenceOf(specs)
      const extra = estimate === undefined ? {} : { populationEstimate: estimate }
      const result = computeTrust({ memory: memoryEvidence({ id: MEMORY, author: AUTHOR }), attestations, anchors: [], reputation: full, now: NOW, ...extra }, { policy: 'isnad-draw' })
      expect(TrustResultSchema.safeParse(result).success).toBe(true)
      const counted = new Set(result.counted.attestations.map((a) => a.id))
      const expected = attestations.filter((a) => counted.has(a.id) && a.drawFraction !== undefined && a.record.draw !== undefined && estimate !== undefined &&
        below(a.drawFraction, a.record.draw.population) && a.record.draw.population * 2 >= estimate)
      expect(result.witness_selection?.drawn).toBe(expected.length)
      for (const a of expected) expect(result.counted.attestations.find((c) => c.id === a.id)?.note).toMatch(/witness drawn for this memory$/)
      const shuffled = [...attestations].sort(() => ((randoms.next().value as number) % 3) - 1)
      const again = computeTrust({ memory: memoryEvidence({ id: MEMORY, author: AUTHOR }), attestations: shuffled, anchors: [], reputation: full, now: NOW, ...extra }, { policy: 'isnad-draw' })
      expect(again).toEqual(result)
    }), { numRuns: 200 })
  })
})
