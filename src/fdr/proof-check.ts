import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { verifyRecord, type VerifiedRecord } from '../record/index.js'
import type { RecordKind } from '../schema/index.js'

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
