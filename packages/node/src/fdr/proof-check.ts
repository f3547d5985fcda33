import type { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { verifyRecord, type VerifiedRecord } from '../record/index.js'
import type { RecordKind, SignedRecord } from '../schema/index.js'

/**
 * The Verifier has no clock (M-8), so record freshness (record-v1 R16, "not dated more than 15
 * minutes ahead of the verifier's clock") is not its question: a signature and an id are valid at
 * any time. verifyRecord's freshness step is given an infinitely late clock, which disables only
 * that step; every other step (schema, size, kind, key, signature) runs as everywhere else.
 */
const NO_CLOCK = Number.POSITIVE_INFINITY

/** The verdict on a proof with the reason, for reports; verifyProof keeps only `valid`. */
export interface ProofVerdict {
  valid: boolean
  code?: string
  reason?: string
}

export const VALID: ProofVerdict = Object.freeze({ valid: true })

export function invalid (code: string, reason: string): ProofVerdict {
  return { valid: false, code, reason }
}

/** A signed record checked by the record-v1 pipeline, or the code and reason it failed with. */
export function checkSigned (input: unknown, kind: RecordKind, signatures: SignatureVerifier): VerifiedRecord | ProofVerdict {
  try {
    return verifyRecord(input, { verifier: signatures, now: NO_CLOCK, expectedKind: kind })
  } catch (err) {
    if (err instanceof IsnadError) return invalid(err.code, err.message)
    throw err
  }
}

export function isVerdict (value: VerifiedRecord | ProofVerdict): value is ProofVerdict {
  return 'valid' in value
}

/**
 * The first steps of every method's check: the proof's shape (`schema`, SCHEMA_INVALID naming the
 * `method`), then its memory through the record-v1 pipeline, which must hash to the proof's worldId
 * (CID_MISMATCH). The parsed proof, or the verdict it failed with.
 */
export function checkProofMemory<P extends { worldId: string, memory: SignedRecord }> (
  schema: z.ZodType<P>, method: string, input: unknown, signatures: SignatureVerifier
): P | ProofVerdict {
  const parsed = schema.safeParse(input)
  if (!parsed.success) return invalid('SCHEMA_INVALID', `not ${method} proof: ${parsed.error.issues[0]?.message ?? ''}`)
  const memory = checkSigned(parsed.data.memory, 'memory', signatures)
  if (isVerdict(memory)) return memory
  if (memory.id !== parsed.data.worldId) return invalid('CID_MISMATCH', `the memory hashes to ${memory.id}, not ${parsed.data.worldId}`)
  return parsed.data
}
