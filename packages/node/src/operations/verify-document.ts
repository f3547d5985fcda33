import { isFdrDocument, verifyFdrDocument, type FdrReport } from '../fdr/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { verifyDocument, type DocumentReport } from '../memory-view/index.js'

/**
 * Any document a node hands out, checked with nothing but itself (record-v1 §7, FDR-Memory M-12): a
 * memory view, a bundle or an inclusion proof, or an FDR proof or selection. The one check behind
 * the `verify` operation on every surface and the CLI's offline `isnad verify`.
 */
export function verifyAnyDocument (document: unknown, verifier: SignatureVerifier, now: number): DocumentReport | FdrReport {
  return isFdrDocument(document) ? verifyFdrDocument(document, verifier) : verifyDocument(document, { verifier, now })
}
