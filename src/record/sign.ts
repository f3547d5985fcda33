import { IsnadError } from '../errors/index.js'
import { encodeDidKey, publicKeyOfSeed, signBytes } from '../identity/index.js'
import { SCHEMAS_BY_KIND, type IsnadRecord, type SignedRecord } from '../schema/index.js'
import { encodeSignature, recordCidOf, signingInputFor } from './encoding.js'
import { schemaError, signerOf } from './parse-record.js'

/**
 * Validates `record` and signs it with `secretKey`, which must belong to the record's signer
 * (record-v1 §3.2). Returns the signed record and its id.
 */
export function signRecord<R extends IsnadRecord> (record: R, secretKey: Uint8Array): { id: string, signed: SignedRecord<R> } {
  const parsed = SCHEMAS_BY_KIND[record.kind].safeParse(record)
  if (!parsed.success) throw schemaError(parsed.error, record.kind)
  const signer = signerOf(record)
  // Cached per seed: deriving the key on every call cost half a signature (BENCHMARKS.md, figure 2).
  if (encodeDidKey(publicKeyOfSeed(secretKey)) !== signer) {
    throw new IsnadError('KEY_INVALID', `the signing key is not ${signer}, the ${record.kind}'s signer`)
  }
  const cid = recordCidOf(record)
  const signature = signBytes(signingInputFor(record.kind, cid), secretKey)
  return { id: cid.toString(), signed: { record, signature: encodeSignature(signature) } }
}
