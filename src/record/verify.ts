import * as dagCbor from '@ipld/dag-cbor'
import type { CID } from 'multiformats/cid'
import type { z } from 'zod'
import { IsnadError, type ErrorCode } from '../errors/index.js'
import { decodeDidKey, type SignatureVerifier } from '../identity/index.js'
import {
  MAX_CLOCK_SKEW_MS, MAX_RECORD_BYTES, SignedRecordSchema, TOO_LARGE,
  type IsnadRecord, type RecordKind, type SignedRecord
} from '../schema/index.js'
import { decodeSignature, encodeCanonical, recordCidOf, signingInputFor } from './encoding.js'

/** A record that passed every step of verifyRecord; `id` is its CID string. */
export interface VerifiedRecord<R extends IsnadRecord = IsnadRecord> {
  id: string
  cid: CID
  signed: SignedRecord<R>
}

export interface VerifyRecordOptions {
  verifier: SignatureVerifier
  /** The verifier's clock, in ms since the epoch: pure code takes time as input. */
  now: number
  /** Refuse any other kind with WRONG_KIND. */
  expectedKind?: RecordKind
}

/** Who signs each kind of record (record-v1 §3). */
export function signerOf (record: IsnadRecord): string {
  switch (record.kind) {
    case 'memory': return record.author.agent_id
    case 'attestation': return record.witness
    case 'anchor': return record.anchored_by
    case 'witness_request': return record.requester
  }
}

/** The instant a record claims for itself, checked against the clock (record-v1 R5). */
export function timeOf (record: IsnadRecord): string {
  switch (record.kind) {
    case 'memory': return record.created_at
    case 'attestation': return record.witnessed_at
    case 'anchor': return record.created_at
    case 'witness_request': return record.created_at
  }
}

/** Turns a zod failure into an IsnadError: FIELD_TOO_LARGE when a limit was hit, else SCHEMA_INVALID. */
export function schemaError (error: z.ZodError, what: string): IsnadError {
  const tooLarge = error.issues.some((issue) =>
    issue.code === 'too_big' ||
    (issue.code === 'custom' && (issue.params as Record<string, unknown> | undefined)?.isnad === TOO_LARGE.isnad))
  const code: ErrorCode = tooLarge ? 'FIELD_TOO_LARGE' : 'SCHEMA_INVALID'
  const issues = error.issues.slice(0, 8).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  const summary = first === undefined ? 'invalid' : `${first.path === '' ? '(root)' : first.path}: ${first.message}`
  return new IsnadError(code, `${what} is invalid: ${summary}`, { details: { issues } })
}

/** Step "schema": plain data (parsed JSON or decoded CBOR) to a typed signed record. */
export function parseSignedRecord (input: unknown): SignedRecord {
  const result = SignedRecordSchema.safeParse(input)
  if (!result.success) throw schemaError(result.error, 'record')
  return result.data as SignedRecord
}

/** Step "decode" for bytes from the network: size limit first, then DAG-CBOR (record-v1 §5). */
export function decodeSignedRecord (bytes: Uint8Array): SignedRecord {
  if (bytes.length > MAX_RECORD_BYTES) {
    throw new IsnadError('RECORD_TOO_LARGE', `record of ${bytes.length} bytes exceeds ${MAX_RECORD_BYTES}`)
  }
  let data: unknown
  try {
    data = dagCbor.decode(bytes)
  } catch (cause) {
    throw new IsnadError('DECODE_FAILED', 'record bytes are not valid DAG-CBOR', { cause })
  }
  return parseSignedRecord(data)
}

export function encodeSignedRecord (signed: SignedRecord): Uint8Array {
  return encodeCanonical(signed)
}

/**
 * The verification pipeline of record-v1 §5, each step throwing its own code:
 * schema → size → kind → signer key → signature → freshness.
 */
export function verifyRecord (input: unknown, options: VerifyRecordOptions): VerifiedRecord {
  const signed = parseSignedRecord(input)
  const size = encodeSignedRecord(signed).length
  if (size > MAX_RECORD_BYTES) {
    throw new IsnadError('RECORD_TOO_LARGE', `record of ${size} bytes exceeds ${MAX_RECORD_BYTES}`)
  }
  const { record } = signed
  if (options.expectedKind !== undefined && record.kind !== options.expectedKind) {
    throw new IsnadError('WRONG_KIND', `expected a ${options.expectedKind} record, got ${record.kind}`)
  }
  const cid = recordCidOf(record)
  const id = cid.toString()
  const publicKey = decodeDidKey(signerOf(record))
  const signature = decodeSignature(signed.signature)
  if (!options.verifier.verify(signature, signingInputFor(record.kind, cid), publicKey)) {
    throw new IsnadError('SIGNATURE_INVALID', `signature of ${record.kind} ${id} does not verify`, {
      details: { id, kind: record.kind, signer: signerOf(record) }
    })
  }
  assertNotInFuture(record, options.now, id)
  return { id, cid, signed }
}

/** True when the signature checks out; schema and key errors still throw. */
export function isRecordSignatureValid (signed: SignedRecord, verifier: SignatureVerifier): boolean {
  const cid = recordCidOf(signed.record)
  try {
    return verifier.verify(decodeSignature(signed.signature), signingInputFor(signed.record.kind, cid), decodeDidKey(signerOf(signed.record)))
  } catch (err) {
    if (err instanceof IsnadError && (err.code === 'SIGNATURE_MALFORMED' || err.code === 'DID_INVALID')) return false
    throw err
  }
}

/** record-v1 R5: a record dated more than MAX_CLOCK_SKEW_MS after `now` is refused. */
export function assertNotInFuture (record: IsnadRecord, now: number, id: string): void {
  const at = Date.parse(timeOf(record))
  if (at > now + MAX_CLOCK_SKEW_MS) {
    throw new IsnadError('TIMESTAMP_IN_FUTURE', `${record.kind} ${id} is dated ${timeOf(record)}, more than 15 minutes ahead`, {
      details: { id, at: timeOf(record) }
    })
  }
}
