import type { SignatureVerifier } from '../identity/index.js'
import { createAuthority, type AuthorityVerdict } from './authority.js'
import type { ProofVerdict } from './proof-check.js'
import { VerificationProofSchema } from './types.js'
import { createMemoryVerifier } from './memory-verifier.js'

/** What `isnad verify` reports for an FDR document. */
export interface FdrReport {
  valid: boolean
  document: 'fdr-selection' | 'fdr-proof'
  /** For a selection (a list, a trace or a `select` result): the Authority's verdict per entry. */
  verdicts?: AuthorityVerdict[]
  /** For a bare proof `{ method, proof }`. */
  proof?: ProofVerdict
}

/**
 * True for the documents of the memory layer: a `{ method, proof }`, a list of selected memories, or
 * an object with `selected` (a MemoryTrace, or `query --select --json` output).
 */
export function isFdrDocument (document: unknown): boolean {
  if (Array.isArray(document)) return document.length > 0 && typeof document[0] === 'object' && document[0] !== null && 'ref' in document[0]
  if (typeof document !== 'object' || document === null) return false
  return 'selected' in document || (VerificationProofSchema.safeParse(document).success && 'method' in document && !('record' in document))
}

/**
 * Checks an FDR document with nothing but the document (M-12): a proof with verifyProof, a selection
 * as an Authority would, with requireEvidence (every entry must carry a proof, and it must verify
 * and be about the memory the entry names). No store, no data directory, no clock.
 */
export function verifyFdrDocument (document: unknown, signatures: SignatureVerifier): FdrReport {
  const verifier = createMemoryVerifier({ signatures })
  if (!Array.isArray(document) && typeof document === 'object' && document !== null && !('selected' in document)) {
    const proof = verifier.explainProof(document)
    return { valid: proof.valid, document: 'fdr-proof', proof }
  }
  const decision = createAuthority({ verifier, requireEvidence: true }).check(document)
  return { valid: decision.accepted, document: 'fdr-selection', verdicts: decision.verdicts }
}
