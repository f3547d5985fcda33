import { isIsnadError } from '../errors/index.js'
import { verifyRecordBytes, type RecordBytesVerdict } from '../record/index.js'
import { nodeCryptoVerifier } from './node-verifier.js'
import { readRecordChunk, type PackedRecord } from './record-threads.js'

/*
 * The record half of a verifier thread (verify-thread.ts loads it on its first chunk of records):
 * every step of verifyRecordBytes with nodeCryptoVerifier, as the calling thread would run them.
 */

/** A verdict per packed record, or undefined for a failure that is not an IsnadError (the calling thread then runs the steps itself and meets it). */
export function recordVerdicts (packed: Uint8Array, count: number): Array<RecordBytesVerdict | undefined> {
  return readRecordChunk(packed, count).map(recordVerdict)
}

function recordVerdict ({ bytes, now, expectedKind }: PackedRecord): RecordBytesVerdict | undefined {
  try {
    const verified = verifyRecordBytes(bytes, { verifier: nodeCryptoVerifier, now, ...(expectedKind === undefined ? {} : { expectedKind }) })
    return { id: verified.id, digest: verified.cid.multihash.digest, signed: verified.signed }
  } catch (err) {
    if (!isIsnadError(err)) return undefined
    return err.details === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, details: err.details }
  }
}
