import * as dagCbor from '@ipld/dag-cbor'
import type { z } from 'zod'
import { IsnadError, type ErrorCode } from '../errors/index.js'
import {
  checkSignedRecord, MAX_RECORD_BYTES, SignedRecordSchema, TOO_LARGE, type IsnadRecord, type SignedRecord
} from '../schema/index.js'
import { decodeCanonicalCbor } from './canonical-cbor.js'
import { encodeCanonical } from './encoding.js'
import { encodeSignedRecordBytes } from './signed-bytes.js'

/** Who signs each kind of record (record-v1 §3.2, R10). */
export function signerOf (record: IsnadRecord): string {
  switch (record.kind) {
    case 'memory': return record.author.agent_id
    case 'attestation': return record.witness
    case 'anchor': return record.anchored_by
    case 'witness_request': return record.requester
  }
}

/** The instant a record claims for itself, checked against the clock (record-v1 R16). */
export function timeOf (record: IsnadRecord): string {
  switch (record.kind) {
    case 'memory': return record.created_at
    case 'attestation': return record.witnessed_at
    case 'anchor': return record.created_at
    case 'witness_request': return record.created_at
  }
}

/** Issue origins whose `too_big` is a size limit (record-v1 R8); a number above its maximum is not. */
const SIZED_ORIGINS = new Set(['string', 'array'])

function isSizeIssue (issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'too_big') return SIZED_ORIGINS.has(issue.origin)
  return issue.code === 'custom' && (issue.params as Record<string, unknown> | undefined)?.isnad === TOO_LARGE.isnad
}

/**
 * Turns a zod failure into an IsnadError: FIELD_TOO_LARGE when any issue is a size limit (record-v1
 * R8), else SCHEMA_INVALID. The first issues are kept in `details` with their paths.
 */
export function schemaError (error: z.ZodError, what: string): IsnadError {
  const code: ErrorCode = error.issues.some(isSizeIssue) ? 'FIELD_TOO_LARGE' : 'SCHEMA_INVALID'
  const issues = error.issues.slice(0, 8).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  const summary = first === undefined ? 'invalid' : `${first.path === '' ? '(root)' : first.path}: ${first.message}`
  return new IsnadError(code, `${what} is invalid: ${summary}`, { details: { issues } })
}

/**
 * Step "schema" (record-v1 §5): plain data (parsed JSON or decoded CBOR) to a typed signed record,
 * a new object. A valid record is built by checkSignedRecord; zod judges the rest and words the error.
 */
export function parseSignedRecord (input: unknown): SignedRecord {
  const checked = checkSignedRecord(input)
  if (checked !== undefined) return checked
  const result = SignedRecordSchema.safeParse(input)
  if (!result.success) throw schemaError(result.error, 'record')
  return result.data as SignedRecord
}

/**
 * Bytes to a schema-valid signed record: size first (record-v1 R8), then DAG-CBOR in its strict
 * decoding profile (R18), then the schema. No canonical-form check and no signature: this reads a
 * store's own bytes; bytes from the network go through verifyRecordBytes.
 */
export function decodeSignedRecord (bytes: Uint8Array): SignedRecord {
  assertRecordSize(bytes)
  return parseSignedRecord(decodeGeneral(bytes))
}

/** Bytes received, as decodeSignedRecord reads them, and whether they are canonical (record-v1 R18) when that was seen on the way. */
export interface ReceivedRecord {
  signed: SignedRecord
  /**
   * True: the bytes are the canonical encoding of `signed` (decodeCanonicalCbor said so while
   * decoding). False: not known; the caller encodes `signed` and compares (verify-record.ts).
   */
  canonical: boolean
}

/**
 * decodeSignedRecord for bytes from elsewhere, which must also be canonical (record-v1 R18): one
 * pass decodes them and checks their form (canonical-cbor.ts), then the schema; bytes that pass
 * cannot be told apart from their re-encoding, so that step is skipped. Any other bytes take the
 * general path with `canonical: false`: the same steps, values and errors as decodeSignedRecord.
 */
export function decodeReceivedRecord (bytes: Uint8Array): ReceivedRecord {
  assertRecordSize(bytes)
  const value = decodeCanonicalCbor(bytes)
  if (value === undefined) return { signed: parseSignedRecord(decodeGeneral(bytes)), canonical: false }
  return { signed: parseSignedRecord(value), canonical: true }
}

function assertRecordSize (bytes: Uint8Array): void {
  if (bytes.length > MAX_RECORD_BYTES) { // R8
    throw new IsnadError('RECORD_TOO_LARGE', `record of ${bytes.length} bytes exceeds ${MAX_RECORD_BYTES}`)
  }
}

/** @ipld/dag-cbor's decoder in its strict profile (R18): whatever the bytes hold, or DECODE_FAILED. */
function decodeGeneral (bytes: Uint8Array): unknown {
  let data: unknown
  try {
    data = dagCbor.decode(bytes)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', 'record bytes are not valid DAG-CBOR', { cause })
  }
  return data
}

/** The canonical bytes of a signed record: the record is encoded once and wrapped (record-v1 §2.4). */
export function encodeSignedRecord (signed: SignedRecord): Uint8Array {
  return encodeSignedRecordBytes(encodeCanonical(signed.record), signed.signature)
}
