import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { codeOf } from '../../fixtures/error-code.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import {
  consistencyProofFromJson, createCheckpoint, detectEquivocation, hashFromHex, hashLeaf, proveConsistency,
  signCheckpoint, verifyMisbehaviourEvidence, computeRoot, type SignedCheckpoint
} from '../../../src/merkle/index.js'

/** Misbehaviour evidence (transparency-v1 §6) from the equivocating pair of checkpoint.json. */

interface Vectors {
  keys: Array<{ did: string, seed: string }>
  equivocation: { a: SignedCheckpoint, b: SignedCheckpoint, same_root_later: SignedCheckpoint, other_log: SignedCheckpoint }
}
const vectors = JSON.parse(readFileSync(new URL('../../../protocols/vectors/merkle/checkpoint.json', import.meta.url), 'utf8')) as Vectors
const { a, b, same_root_later: sameRoot, other_log: otherLog } = vectors.equivocation
const verifier = nodeCryptoVerifier
const node = vectors.keys[0] as { did: string, seed: string }
const seed = Buffer.from(node.seed, 'hex')

/** A log of `n` leaves, a checkpoint of size m and one of size n, and the true proof between them. */
function twoCheckpoints (m: number, n: number): { older: SignedCheckpoint, newer: SignedCheckpoint, hashes: Uint8Array[] } {
  const hashes = Array.from({ length: n }, (_, i) => hashLeaf(Uint8Array.of(i)))
  const at = (size: number, minute: number): SignedCheckpoint => signCheckpoint(createCheckpoint({
    log: node.did, size, root: computeRoot(hashes, size), createdAt: `2026-02-05T16:0${minute}:00Z`
  }), seed).signed
  return { older: at(m, 1), newer: at(n, 2), hashes }
}

describe('equivocation: the same size, different roots', () => {
  it('is found in either order, gives one evidence, and anyone can check it', () => {
    const evidence = detectEquivocation(a, b, verifier)
    expect(evidence).toMatchObject({ type: 'equivocation', log: node.did, size: 8 })
    expect(detectEquivocation(b, a, verifier)).toEqual(evidence)
    expect(verifyMisbehaviourEvidence(JSON.parse(JSON.stringify(evidence)), verifier)).toBe(true)
  })

  it('is not found for equal roots, other logs, or different sizes without a proof', () => {
    expect(detectEquivocation(a, sameRoot, verifier)).toBeNull()
    expect(detectEquivocation(a, a, verifier)).toBeNull()
    expect(detectEquivocation(b, otherLog, verifier)).toBeNull()
    const { older, newer } = twoCheckpoints(3, 8)
    expect(detectEquivocation(older, newer, verifier)).toBeNull()
  })

  it('is never made of an invalid checkpoint', () => {
    const forged = { ...b, record: { ...b.record, created_at: '2026-02-05T16:09:00Z' } }
    expect(codeOf(() => detectEquivocation(a, forged, verifier))).toBe('SIGNATURE_INVALID')
  })

  it('tampered evidence does not check out', () => {
    const evidence = detectEquivocation(a, b, verifier)
    expect(verifyMisbehaviourEvidence({ ...evidence, size: 7 }, verifier)).toBe(false)
    expect(verifyMisbehaviourEvidence({ ...evidence, checkpoints: [a, sameRoot] }, verifier)).toBe(false)
    expect(verifyMisbehaviourEvidence({ ...evidence, checkpoints: [a, { ...b, signature: a.signature }] }, verifier)).toBe(false)
    expect(verifyMisbehaviourEvidence({ ...evidence, log: 'did:key:z6Mk' }, verifier)).toBe(false)
    expect(codeOf(() => verifyMisbehaviourEvidence({ type: 'gossip' }, verifier))).toBe('SCHEMA_INVALID')
  })
})

describe('inconsistency: a consistency proof between two checkpoints that fails', () => {
  it('a true proof is no evidence; a failing one is, and checks out', () => {
    const { older, newer, hashes } = twoCheckpoints(3, 8)
    const proof = proveConsistency(hashes, 3, 8)
    expect(detectEquivocation(newer, older, verifier, proof)).toBeNull()
    const bad = { ...proof, path: proof.path.map((h, i) => i === 0 ? hashLeaf(h) : h) }
    const evidence = detectEquivocation(newer, older, verifier, bad)
    expect(evidence).toMatchObject({ type: 'inconsistency', log: node.did })
    expect(evidence?.checkpoints).toEqual([older, newer])
    expect(verifyMisbehaviourEvidence(evidence, verifier)).toBe(true)
    if (evidence?.type !== 'inconsistency') throw new Error('unreachable')
    expect(consistencyProofFromJson(evidence.proof)).toEqual(bad)
    // Replacing the failing proof by the true one withdraws the evidence.
    expect(verifyMisbehaviourEvidence({ ...evidence, proof: { first: 3, second: 8, path: proof.path.map((h) => Buffer.from(h).toString('hex')) } }, verifier)).toBe(false)
  })

  it('a forked log is caught against its own earlier checkpoint', () => {
    const { older, hashes } = twoCheckpoints(5, 8)
    const forked = [...hashes.slice(0, 4), hashLeaf(Uint8Array.of(99)), ...hashes.slice(5)]
    const newer = signCheckpoint(createCheckpoint({ log: node.did, size: 8, root: computeRoot(forked), createdAt: '2026-02-05T16:03:00Z' }), seed).signed
    // The best the fork can serve is its own proof, which cannot match the older root.
    const evidence = detectEquivocation(older, newer, verifier, proveConsistency(forked, 5, 8))
    expect(evidence?.type).toBe('inconsistency')
    expect(verifyMisbehaviourEvidence(evidence, verifier)).toBe(true)
  })

  it('a proof for other sizes is refused (PROOF_MALFORMED), not taken as evidence', () => {
    const { older, newer, hashes } = twoCheckpoints(3, 8)
    expect(codeOf(() => detectEquivocation(older, newer, verifier, proveConsistency(hashes, 2, 8)))).toBe('PROOF_MALFORMED')
    expect(hashFromHex(older.record.root)).toEqual(computeRoot(hashes, 3))
  })
})
