/**
 * The memory layer of FDR-Memory v1.2.0 (docs/fdr-compliance.md): Store, a pure Verifier
 * with portable proofs (isnad-ed25519, merkle-inclusion, hash), the Selector that wraps evidence and
 * appends a trace for every selection, and an Authority that judges selections with verifyProof alone.
 */
export * from './types.js'
export { createMemoryVerifier, subjectOfProof, type MemoryVerifierInit } from './memory-verifier.js'
export type { ProofVerdict } from './proof-check.js'
export { Ed25519ProofSchema, MAX_PROOF_EVIDENCE, type Ed25519Proof } from './method-ed25519.js'
export { MerkleProofSchema, type MerkleProof } from './method-merkle.js'
export { HashProofSchema, type HashProof } from './method-hash.js'
export {
  createAuthority, type AuthorityCode, type AuthorityDecision, type AuthorityInit, type AuthorityVerdict
} from './authority.js'
export {
  createMemorySelector, CANDIDATE_FACTOR, DEFAULT_SELECT_LIMIT, MAX_SCANNED, MAX_SELECT_LIMIT, MAX_SUCCESSOR_HOPS,
  type SelectionResult, type SelectorInit, type SelectRequest
} from './selector.js'
export { createRecordMemoryStore, type RecordMemoryStoreInit } from './record-memory-store.js'
export { verifyFdrDocument, isFdrDocument, type FdrReport } from './verify-fdr-document.js'
export { SelectRequestSchema } from './request-schema.js'
