/*
 * The canonical bytes the verification pipeline built in this process (VerifiedRecord.bytes), with
 * the id it computed from them. A store handed these very bytes (recognised by identity, not by
 * content) knows they hash to that id without hashing them again: ingest verifies a batch and
 * stores it a moment later, and the second SHA-256, CID and base32 spelling per record cost more
 * of the ingest thread than the write itself. Bytes from anywhere else are hashed by the store as
 * before. Like the record objects, the bytes must not be written to once verification returned
 * them. A WeakMap, so an entry goes when its bytes do.
 */
const verifiedIds = new WeakMap<Uint8Array, string>()

/** Called by the pipeline once every step passed: `bytes` are the canonical encoding of record `id`. */
export function noteVerifiedBytes (bytes: Uint8Array, id: string): void {
  verifiedIds.set(bytes, id)
}

/** The id verification computed from exactly these bytes, or undefined for any other buffer. */
export function verifiedIdOf (bytes: Uint8Array): string | undefined {
  return verifiedIds.get(bytes)
}
