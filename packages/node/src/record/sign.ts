import { IsnadError } from '../errors/index.js'
import { encodeDidKey } from '../identity/index.js'
import { MAX_RECORD_BYTES, SCHEMAS_BY_KIND, type IsnadRecord, type SignedRecord } from '../schema/index.js'
import { cidOfBytes, cidString, encodeCanonical, encodeSignature, recordCidOf, signingInputFor } from './encoding.js'
import { schemaError, signerOf } from './parse-record.js'
import { PORTABLE_FAST_PATHS, type RecordFastPaths } from './fast-paths.js'
import { encodeSignedRecordBytes } from './signed-bytes.js'
import { noteVerifiedBytes } from './verified-bytes.js'
import type { VerifiedRecord } from './verify-record.js'

/**
 * Validates `record` and signs it with `secretKey`, which must belong to the record's signer
 * (record-v1 §3.2). Returns the signed record and its id. `paths.publicKeyOfSeed` derives the key
 * the signer is checked against and `paths.sign` signs: the node passes its memo of the one and
 * libsodium's signing for the other (nodeCryptoVerifier.recordFastPaths).
 */
export function signRecord<R extends IsnadRecord> (record: R, secretKey: Uint8Array, paths: RecordFastPaths = PORTABLE_FAST_PATHS): { id: string, signed: SignedRecord<R> } {
  assertSignable(record, secretKey, paths)
  const cid = recordCidOf(record)
  const signature = paths.sign(signingInputFor(record.kind, cid), secretKey)
  return { id: cid.toString(), signed: { record, signature: encodeSignature(signature) } }
}

/**
 * signRecord for a record this node ingests at once (a local `remember`, `attest`, …): the record is
 * encoded once, and that encoding gives the id, the signing input and the canonical bytes of the
 * signed record (record-v1 §2.4), which the ingest pipeline stores and the publisher gossips as they
 * are. The result is a VerifiedRecord: every check of record-v1 §5.2 holds by construction (schema
 * above, canonical form, the signer's own key, a fresh Ed25519 signature) but the size, checked
 * here (R8), and freshness, which the caller's clock gives. `paths` as for signRecord.
 */
export function signRecordVerified<R extends IsnadRecord> (record: R, secretKey: Uint8Array, paths: RecordFastPaths = PORTABLE_FAST_PATHS): VerifiedRecord<R> {
  assertSignable(record, secretKey, paths)
  const recordBytes = encodeCanonical(record)
  const cid = cidOfBytes(recordBytes)
  const signature = encodeSignature(paths.sign(signingInputFor(record.kind, cid), secretKey))
  const bytes = encodeSignedRecordBytes(recordBytes, signature)
  if (bytes.length > MAX_RECORD_BYTES) { // R8
    throw new IsnadError('RECORD_TOO_LARGE', `record of ${bytes.length} bytes exceeds ${MAX_RECORD_BYTES}`)
  }
  const id = cidString(cid)
  noteVerifiedBytes(bytes, id)
  return { id, cid, signed: { record, signature }, bytes }
}

/** Schema (the record as given) and the signer's key (record-v1 §3.2), as signRecord checks them. */
function assertSignable (record: IsnadRecord, secretKey: Uint8Array, paths: RecordFastPaths): void {
  const parsed = SCHEMAS_BY_KIND[record.kind].safeParse(record)
  if (!parsed.success) throw schemaError(parsed.error, record.kind)
  const signer = signerOf(record)
  // The node's paths cache this per seed: deriving the key costs half a signature (BENCHMARKS.md, figure 2).
  if (encodeDidKey(paths.publicKeyOfSeed(secretKey)) !== signer) {
    throw new IsnadError('KEY_INVALID', `the signing key is not ${signer}, the ${record.kind}'s signer`)
  }
}
