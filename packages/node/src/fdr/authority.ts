import { z } from 'zod'
import { subjectOfProof } from './memory-verifier.js'
import {
  MAX_SELECTED, MemoryTraceSchema, SelectedMemorySchema, type MemoryVerifier, type VerificationMethod,
  type VerificationProof
} from './types.js'

export interface AuthorityInit {
  /** Only verifyProof: the Authority has no Store and no prove (decision record §3.7). */
  verifier: Pick<MemoryVerifier, 'verifyProof'>
  /** §5.1: every selection must carry evidence whose method is not `none`. @default true */
  requireEvidence?: boolean
  /**
   * The policy-level rule §5.1 leaves to the Authority: which methods count. Absent: any method
   * this node verifies. E.g. `['isnad-ed25519', 'merkle-inclusion']` for cryptographic proof only.
   */
  acceptedMethods?: readonly VerificationMethod[]
}

export type AuthorityCode = 'SCHEMA_INVALID' | 'EVIDENCE_REQUIRED' | 'METHOD_NOT_ACCEPTED' | 'PROOF_INVALID' | 'WRONG_MEMORY'

export interface AuthorityVerdict {
  /** The selection's ref.worldId as submitted (null when the entry was unreadable). */
  worldId: string | null
  accepted: boolean
  /** Whether a proof was checked (false for an accepted selection without evidence). */
  proofChecked: boolean
  code?: AuthorityCode
  reason?: string
}

export interface AuthorityDecision {
  accepted: boolean
  verdicts: AuthorityVerdict[]
}

/** A submission: the selected memories alone, or a whole MemoryTrace. */
const SubmissionSchema = z.union([z.array(z.unknown()).max(MAX_SELECTED), z.looseObject({ selected: z.array(z.unknown()).max(MAX_SELECTED) })])

/**
 * The Authority (FDR §3.4, §3.7, M-4, M-12): judges selections an Actor submits, with verifyProof()
 * alone. It never reads a store, never calls prove(), never re-selects, reorders or adds: it only
 * accepts or refuses what was submitted, each refusal with a stable code.
 */
export function createAuthority (init: AuthorityInit): { check: (submission: unknown) => AuthorityDecision } {
  const requireEvidence = init.requireEvidence ?? true
  return {
    check (submission: unknown): AuthorityDecision {
      const parsed = SubmissionSchema.safeParse(submission)
      if (!parsed.success) {
        return { accepted: false, verdicts: [{ worldId: null, accepted: false, proofChecked: false, code: 'SCHEMA_INVALID', reason: 'not a selection list or a memory trace' }] }
      }
      // An object that calls itself a trace (it names a selector) must be a whole, valid one.
      if (!Array.isArray(parsed.data) && 'selector' in parsed.data && !MemoryTraceSchema.safeParse(parsed.data).success) {
        return { accepted: false, verdicts: [{ worldId: null, accepted: false, proofChecked: false, code: 'SCHEMA_INVALID', reason: 'not a valid memory trace' }] }
      }
      const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.selected
      const verdicts = entries.map((entry) => judge(entry, init, requireEvidence))
      return { accepted: verdicts.every((v) => v.accepted), verdicts }
    }
  }
}

function judge (entry: unknown, init: AuthorityInit, requireEvidence: boolean): AuthorityVerdict {
  const parsed = SelectedMemorySchema.safeParse(entry)
  if (!parsed.success) {
    return { worldId: null, accepted: false, proofChecked: false, code: 'SCHEMA_INVALID', reason: `not a SelectedMemory: ${parsed.error.issues[0]?.message ?? ''}` }
  }
  const { ref, evidence } = parsed.data
  const refuse = (code: AuthorityCode, reason: string, proofChecked = false): AuthorityVerdict =>
    ({ worldId: ref.worldId, accepted: false, proofChecked, code, reason })
  // §5.1: requireEvidence means evidence present AND method ≠ 'none' (presence, not cryptography).
  if (evidence === undefined || evidence.method === 'none') {
    return requireEvidence
      ? refuse('EVIDENCE_REQUIRED', evidence === undefined ? 'the selection carries no evidence' : 'the evidence\'s method is none')
      : { worldId: ref.worldId, accepted: true, proofChecked: false }
  }
  if (init.acceptedMethods !== undefined && !init.acceptedMethods.includes(evidence.method)) {
    return refuse('METHOD_NOT_ACCEPTED', `method ${evidence.method} is not among ${init.acceptedMethods.join(', ')}`)
  }
  // §5.3: the proof is rebuilt from the evidence (without verifiedAt / verifiedBy) before verifyProof.
  const proof: VerificationProof = { method: evidence.method, proof: evidence.proof }
  if (!init.verifier.verifyProof(proof)) return refuse('PROOF_INVALID', `the ${evidence.method} proof does not verify`, true)
  if (subjectOfProof(proof) !== ref.worldId) {
    return refuse('WRONG_MEMORY', `the proof is about ${subjectOfProof(proof) ?? 'nothing named'}, not ${ref.worldId}`, true)
  }
  return { worldId: ref.worldId, accepted: true, proofChecked: true }
}
