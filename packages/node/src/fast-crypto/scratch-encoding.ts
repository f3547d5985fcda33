import { encodeOptions } from '@ipld/dag-cbor'
import { encodeInto } from 'cborg'
import { RECORD_OFFSET, wrapRecordInPlace, type ScratchSignedBytes } from '../record/index.js'
import { MAX_RECORD_BYTES, type IsnadRecord } from '../schema/index.js'

/*
 * The verification pipeline encodes every record it receives (record-v1 R18: the bytes must be the
 * canonical encoding of what they decode to). dagCbor.encode writes into a list of 256-byte chunks
 * and joins them into a new buffer, which the pipeline then copied into the signed layout and
 * compared with the received bytes. Here the same encoder (cborg with @ipld/dag-cbor's own options,
 * the direct path dagCbor.encode takes) writes the record straight into one scratch buffer at its
 * place in the signed layout, and the signed bytes are completed around it: one copy, made by the
 * caller, once the bytes are known to be right. test/unit/fast-crypto/scratch-encoding.test.ts checks the
 * bytes against dagCbor.encode.
 */

const scratch = new Uint8Array(MAX_RECORD_BYTES)
const recordArea = scratch.subarray(RECORD_OFFSET)

/**
 * The canonical bytes of `{ record, signature }` (record-v1 §2.4) in the scratch buffer, or undefined
 * when this path cannot produce them: the record holds something DAG-CBOR refuses (`undefined`,
 * NaN, …) or the signed bytes exceed MAX_RECORD_BYTES. The caller then takes the general path
 * (encodeCanonical), which strips `undefined`, throws the error it always threw, or encodes a record
 * too large for the size check to pass: the outcome is the same either way.
 */
export function encodeSignedIntoScratch (record: IsnadRecord, signature: string): ScratchSignedBytes | undefined {
  let recordLength: number
  try {
    recordLength = encodeInto(record, recordArea, encodeOptions).written
  } catch {
    return undefined
  }
  const size = wrapRecordInPlace(scratch, recordLength, signature)
  return size === undefined ? undefined : { view: scratch.subarray(0, size), recordLength }
}
