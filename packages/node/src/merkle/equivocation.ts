import { z } from 'zod'
import { IsnadError, isIsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { schemaError } from '../record/index.js'
import { SignedCheckpointSchema, verifyCheckpoint, type SignedCheckpoint, type VerifiedCheckpoint } from './checkpoint.js'
import { equalHashes } from './hash.js'
import {
  ConsistencyProofJsonSchema, consistencyProofFromJson, consistencyProofToJson, type ConsistencyProofJson
} from './proof-json.js'
import type { ConsistencyProof } from './types.js'
import { verifyConsistency } from './verify-proof.js'

/*
 * Evidence that a log misbehaved (transparency-v1 §6). An equivocation — two valid checkpoints of one
 * log with the same size and different roots — is a self-contained proof: anyone checks it with the
 * two signatures alone. An inconsistency — a consistency proof between two valid checkpoints that
 * fails — is evidence as strong as the proof's origin: it proves misbehaviour once the log, asked
 * again, cannot produce a proof that verifies (R16).
 */

export interface EquivocationEvidence {
  type: 'equivocation'
  log: string
  size: number
  /** The two checkpoints, ordered by id, so one pair always gives the same evidence. */
  checkpoints: [SignedCheckpoint, SignedCheckpoint]
}

export interface InconsistencyEvidence {
  type: 'inconsistency'
  log: string
  /** The smaller checkpoint first. */
  checkpoints: [SignedCheckpoint, SignedCheckpoint]
  /** The proof the log served for (first.size, second.size), which does not verify. */
  proof: ConsistencyProofJson
}

export type MisbehaviourEvidence = EquivocationEvidence | InconsistencyEvidence

/**
 * Compares two checkpoints (each verified first; an invalid one throws its verifyCheckpoint code).
 * Returns equivocation evidence for the same log, the same size and different roots; for different
 * sizes, inconsistency evidence when `consistency` (the proof between the two sizes) fails to verify.
 * Otherwise null: other logs, equal roots, or different sizes without a proof or with one that verifies.
 */
export function detectEquivocation (a: unknown, b: unknown, verifier: SignatureVerifier, consistency?: ConsistencyProof): MisbehaviourEvidence | null {
  const x = verifyCheckpoint(a, verifier)
  const y = verifyCheckpoint(b, verifier)
  const log = x.signed.record.log
  if (log !== y.signed.record.log) return null
  if (x.signed.record.size === y.signed.record.size) {
    if (equalHashes(x.root, y.root)) return null
    const [p, q] = x.id < y.id ? [x, y] : [y, x]
    return { type: 'equivocation', log, size: x.signed.record.size, checkpoints: [p.signed, q.signed] }
  }
  if (consistency === undefined) return null
  const [older, newer] = x.signed.record.size < y.signed.record.size ? [x, y] : [y, x]
  if (isConsistent(older, newer, consistency)) return null
  return { type: 'inconsistency', log, checkpoints: [older.signed, newer.signed], proof: consistencyProofToJson(consistency) }
}

/** The proof must be for exactly the two sizes (else PROOF_MALFORMED: it proves nothing about them). */
function isConsistent (older: VerifiedCheckpoint, newer: VerifiedCheckpoint, proof: ConsistencyProof): boolean {
  if (proof.first !== older.signed.record.size || proof.second !== newer.signed.record.size) {
    throw new IsnadError('PROOF_MALFORMED', `consistency proof is for sizes ${proof.first} → ${proof.second}, ` +
      `the checkpoints have ${older.signed.record.size} → ${newer.signed.record.size}`)
  }
  return verifyConsistency(proof, older.root, newer.root)
}

const EvidenceSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('equivocation'),
    log: z.string(),
    size: z.number(),
    checkpoints: z.tuple([SignedCheckpointSchema, SignedCheckpointSchema])
  }),
  z.strictObject({
    type: z.literal('inconsistency'),
    log: z.string(),
    checkpoints: z.tuple([SignedCheckpointSchema, SignedCheckpointSchema]),
    proof: ConsistencyProofJsonSchema
  })
])

/**
 * Checks evidence received from anyone (transparency-v1 R15, R16): true when it shows what its type
 * claims, false when a signature, a size, a root or the proof does not bear it out. Only a shape
 * that is not evidence at all throws (SCHEMA_INVALID).
 */
export function verifyMisbehaviourEvidence (input: unknown, verifier: SignatureVerifier): boolean {
  const parsed = EvidenceSchema.safeParse(input)
  if (!parsed.success) throw schemaError(parsed.error, 'misbehaviour evidence')
  const evidence = parsed.data
  try {
    const [first, second] = evidence.checkpoints
    const found = evidence.type === 'equivocation'
      ? detectEquivocation(first, second, verifier)
      : detectEquivocation(first, second, verifier, consistencyProofFromJson(evidence.proof))
    if (found === null || found.type !== evidence.type || found.log !== evidence.log) return false
    return found.type !== 'equivocation' || (evidence.type === 'equivocation' && found.size === evidence.size)
  } catch (err) {
    if (isIsnadError(err)) return false
    throw err
  }
}
