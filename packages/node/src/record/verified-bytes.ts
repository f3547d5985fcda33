/*
 * "Already hashed" as a fact carried by the value (STYLE; nostr-tools' `verifiedSymbol`), not in a
 * global side table: the canonical bytes the verification pipeline built (VerifiedRecord.bytes) carry
 * the id it computed from them under a symbol no other module holds. A store handed these very bytes
 * knows they hash to that id without hashing them again: ingest verifies a batch and stores it a
 * moment later, and the second SHA-256, CID and base32 spelling per record cost more of the ingest
 * thread than the write itself. A copy (`slice`) carries nothing and is hashed as any other buffer.
 * Like the record objects, the bytes must not be written to once verification returned them.
 */
const VERIFIED_ID = Symbol('isnad.verifiedId')

interface MarkedBytes extends Uint8Array {
  readonly [VERIFIED_ID]?: string
}

/** Called by the pipeline once every step passed: `bytes` are the canonical encoding of record `id`. */
export function noteVerifiedBytes (bytes: Uint8Array, id: string): void {
  Object.defineProperty(bytes, VERIFIED_ID, { value: id })
}

/** The id verification computed from exactly these bytes, or undefined for any other buffer. */
export function verifiedIdOf (bytes: Uint8Array): string | undefined {
  return (bytes as MarkedBytes)[VERIFIED_ID]
}
