import type { CID } from 'multiformats/cid'
import { IsnadError } from '../errors/index.js'
import { verifySignatureAsync } from '../identity/index.js'
import {
  MAX_CLOCK_SKEW_MS, MAX_RECORD_BYTES, utf8Length, type IsnadRecord, type RecordKind, type SignedRecord
} from '../schema/index.js'
import { cidOfDigest, cidString, decodeSignature, encodeCanonical, signingInputFor } from './encoding.js'
import { fastPathsOf, type RecordBytesVerdict, type RecordFastPaths, type RecordVerifier } from './fast-paths.js'
import { decodeReceivedRecord, parseSignedRecord, signerOf, timeOf, type ReceivedRecord } from './parse-record.js'
import { encodeSignedRecordBytes, RECORD_OFFSET, recordBytesIn, signedRecordSize } from './signed-bytes.js'
import { noteVerifiedBytes } from './verified-bytes.js'
import { assertDrawValid } from './verify-draw.js'

/** A record that passed every step of verifyRecord; `id` is its CID string. */
export interface VerifiedRecord<R extends IsnadRecord = IsnadRecord> {
  id: string
  cid: CID
  signed: SignedRecord<R>
  /**
   * The canonical DAG-CBOR of `signed` (record-v1 §2.4), built by the pipeline from the record's
   * canonical encoding (never the caller's buffer): what a store keeps, so it need not encode again
   * nor, these very bytes being known as verified (verified-bytes.ts), hash them again. Must not be
   * written to.
   */
  bytes: Uint8Array
}

export interface VerifyRecordOptions {
  /** The signature check, and the platform's fast paths for the other steps when it brings them (fast-paths.ts). */
  verifier: RecordVerifier
  /** The verifier's clock, in ms since the epoch: pure code takes time as input. */
  now: number
  /** Refuse any other kind with WRONG_KIND. */
  expectedKind?: RecordKind | undefined
  /**
   * For bytes: the CID of the record's part of them (recordBytesIn), when the caller hashed it
   * already (the network peeks at every record's id before verifying it), so that it is not hashed
   * again; used only when the bytes are canonical, whose record part is then that very slice. Not
   * checked: a wrong CID makes a wrong id (or the signature check fail).
   */
  recordCid?: CID | undefined
}

/**
 * The verification pipeline of record-v1 §5.2 for plain data (parsed JSON, a JavaScript object), each
 * step throwing its own code: schema → size → kind → signer key → signature → freshness → draw.
 */
export function verifyRecord (input: unknown, options: VerifyRecordOptions): VerifiedRecord {
  return verifyPrepared(prepareVerification(parseSignedRecord(input), options, undefined, false), options)
}

/**
 * The pipeline for bytes from the network (record-v1 §5.2): size → decode → schema → canonical form
 * (R18), then as verifyRecord. Use this rather than decodeSignedRecord + verifyRecord: it parses
 * once, and it refuses a record re-encoded in another byte form (a new gossip message id for the
 * same record). Decoding and the canonical form are checked in one pass where the bytes allow
 * (decodeReceivedRecord); the steps, their order and their errors are the same either way.
 */
export function verifyRecordBytes (bytes: Uint8Array, options: VerifyRecordOptions): VerifiedRecord {
  return verifyPrepared(prepareReceived(decodeReceivedRecord(bytes), options, bytes), options)
}

/**
 * verifyRecord with the signature checked by `verifier.verifyAsync` (off this thread for
 * nodeCryptoVerifier): the same steps in the same order, the same codes, as a rejection. Every step
 * but the signature runs before this returns, so the caller's input may change afterwards.
 */
export function verifyRecordAsync (input: unknown, options: VerifyRecordOptions): Promise<VerifiedRecord> {
  return verifyPreparedAsync(() => prepareVerification(parseSignedRecord(input), options, undefined, false), options)
}

/**
 * verifyRecordBytes with the signature checked by `verifier.verifyAsync`; see verifyRecordAsync.
 * When the verifier's fast paths can run every step elsewhere (verifyBytesElsewhere: the node's
 * verifier threads), they do, and this thread only turns their verdict into the result: the same
 * record, id, bytes and error code, message and details (BENCHMARKS.md).
 */
export function verifyRecordBytesAsync (bytes: Uint8Array, options: VerifyRecordOptions): Promise<VerifiedRecord> {
  const here = (received: Uint8Array): Promise<VerifiedRecord> => verifyPreparedAsync(() => prepareReceived(decodeReceivedRecord(received), options, received), options)
  let elsewhere: Promise<RecordBytesVerdict | undefined> | undefined
  try {
    elsewhere = fastPathsOf(options.verifier).verifyBytesElsewhere?.(bytes, options.now, options.expectedKind)
  } catch (err) {
    return Promise.reject(err)
  }
  if (elsewhere === undefined) return here(bytes)
  // Copied now: the caller may reuse its buffer, and a verified record's bytes are never the caller's.
  const own = bytes.slice()
  return elsewhere.then((verdict) => verdict === undefined ? here(own) : verifiedElsewhere(verdict, own))
}

/** A verdict from elsewhere as verifyRecordBytes would have given it: the record, or its error thrown. */
function verifiedElsewhere (verdict: RecordBytesVerdict, bytes: Uint8Array): VerifiedRecord {
  if ('code' in verdict) {
    throw new IsnadError(verdict.code, verdict.message, verdict.details === undefined ? {} : { details: verdict.details })
  }
  noteVerifiedBytes(bytes, verdict.id)
  return { id: verdict.id, cid: cidOfDigest(verdict.digest), signed: verdict.signed, bytes }
}

/** Everything the steps before the signature produced, and the three inputs of the signature check. */
interface PreparedVerification {
  id: string
  cid: CID
  signed: SignedRecord
  bytes: Uint8Array
  signer: string
  signature: Uint8Array
  message: Uint8Array
  publicKey: Uint8Array
}

function prepareReceived ({ signed, canonical }: ReceivedRecord, options: VerifyRecordOptions, received: Uint8Array): PreparedVerification {
  return prepareVerification(signed, options, received, canonical)
}

/**
 * The steps before the signature, for both forms: canonical form → size → kind → id → signer key.
 * `canonical`: `received` is already known to be the canonical encoding of `signed`.
 */
function prepareVerification (signed: SignedRecord, options: VerifyRecordOptions, received: Uint8Array | undefined, canonical: boolean): PreparedVerification {
  const { record } = signed
  const paths = fastPathsOf(options.verifier)
  // Encoded once (or not at all, when received canonical): the size, the id, the canonical-form
  // check and the stored bytes all come from these.
  const owned = canonical && received !== undefined ? ownCopyOf(received, signed.signature) : undefined
  const { bytes, recordBytes } = owned ?? canonicalBytesOf(signed, received, paths)
  const size = signedRecordSize(recordBytes.length, utf8Length(signed.signature))
  if (size > MAX_RECORD_BYTES) { // R8
    throw new IsnadError('RECORD_TOO_LARGE', `record of ${size} bytes exceeds ${MAX_RECORD_BYTES}`)
  }
  if (options.expectedKind !== undefined && record.kind !== options.expectedKind) { // R17
    throw new IsnadError('WRONG_KIND', `expected a ${options.expectedKind} record, got ${record.kind}`)
  }
  const cid = (owned === undefined ? undefined : options.recordCid) ?? cidOfDigest(paths.sha256(recordBytes)) // R1
  const id = cidString(cid)
  const signer = signerOf(record)
  const publicKey = paths.publicKeyOf(signer) // R10
  const signature = decodeSignature(signed.signature) // R9
  return { id, cid, signed, bytes, signer, signature, message: signingInputFor(record.kind, cid), publicKey }
}

/**
 * The canonical bytes of `signed` (a new buffer, never the caller's) and the record's part of them,
 * refused with DECODE_FAILED when they differ from the bytes received (R18). The record is encoded
 * into the fast paths' scratch space first (src/native in the node); should that path decline, or
 * the platform have none, the general one runs.
 */
function canonicalBytesOf (signed: SignedRecord, received: Uint8Array | undefined, paths: RecordFastPaths): { bytes: Uint8Array, recordBytes: Uint8Array } {
  const encoded = paths.encodeSigned(signed.record, signed.signature)
  if (encoded === undefined) {
    const recordBytes = encodeCanonical(signed.record)
    const bytes = encodeSignedRecordBytes(recordBytes, signed.signature)
    if (received !== undefined && !paths.sameBytes(received, bytes)) throw notCanonical(signed.record)
    return { bytes, recordBytes }
  }
  if (received !== undefined && !paths.sameBytes(received, encoded.view)) throw notCanonical(signed.record)
  const bytes = encoded.view.slice()
  return { bytes, recordBytes: bytes.subarray(RECORD_OFFSET, RECORD_OFFSET + encoded.recordLength) }
}

/**
 * Bytes received and known canonical (decodeReceivedRecord): a copy of them is what an encoding
 * would have given, the record's part found by the layout of record-v1 §2.4. Undefined should the
 * layout not be found (it always is for canonical bytes of a signed record): the caller encodes.
 */
function ownCopyOf (received: Uint8Array, signature: string): { bytes: Uint8Array, recordBytes: Uint8Array } | undefined {
  // A plain copy: `received` may be a Node Buffer, whose slice() is a view of the network's buffer.
  const bytes = new Uint8Array(received.length)
  bytes.set(received)
  const recordBytes = recordBytesIn(bytes, signature)
  return recordBytes === undefined ? undefined : { bytes, recordBytes }
}

function notCanonical (record: IsnadRecord): IsnadError {
  return new IsnadError('DECODE_FAILED', `${record.kind} bytes are not in canonical DAG-CBOR form`) // R18
}

function verifyPrepared (prepared: PreparedVerification, options: VerifyRecordOptions): VerifiedRecord {
  const { signature, message, publicKey } = prepared
  return finishVerification(prepared, options.verifier.verify(signature, message, publicKey), options)
}

/**
 * One promise per record rather than one per async layer (a node verifies thousands a second):
 * the steps before the signature run now, a throw among them becomes the rejection.
 */
function verifyPreparedAsync (prepare: () => PreparedVerification, options: VerifyRecordOptions): Promise<VerifiedRecord> {
  let prepared: PreparedVerification
  let verdict: Promise<boolean>
  try {
    prepared = prepare()
    verdict = verifySignatureAsync(options.verifier, prepared.signature, prepared.message, prepared.publicKey)
  } catch (err) {
    return Promise.reject(err)
  }
  return verdict.then((valid) => finishVerification(prepared, valid, options))
}

/** The steps after the signature check, for both forms: its verdict (R11), freshness (R16), the witness draw (R19). */
function finishVerification (prepared: PreparedVerification, valid: boolean, options: VerifyRecordOptions): VerifiedRecord {
  const { id, cid, signed, bytes, signer } = prepared
  const { record } = signed
  if (!valid) { // R11
    throw new IsnadError('SIGNATURE_INVALID', `signature of ${record.kind} ${id} does not verify`, {
      details: { id, kind: record.kind, signer }
    })
  }
  assertNotInFuture(record, options.now, id)
  assertDrawValid(record, id, prepared.publicKey, fastPathsOf(options.verifier)) // R19, last: it costs the most
  noteVerifiedBytes(bytes, id)
  return { id, cid, signed, bytes }
}

/** True when the signature checks out (record-v1 R9–R11); schema and key errors still throw. */
export function isRecordSignatureValid (signed: SignedRecord, verifier: RecordVerifier): boolean {
  const paths = fastPathsOf(verifier)
  const cid = cidOfDigest(paths.sha256(encodeCanonical(signed.record)))
  try {
    return verifier.verify(decodeSignature(signed.signature), signingInputFor(signed.record.kind, cid), paths.publicKeyOf(signerOf(signed.record)))
  } catch (err) {
    if (err instanceof IsnadError && (err.code === 'SIGNATURE_MALFORMED' || err.code === 'DID_INVALID')) return false
    throw err
  }
}

/** record-v1 R16: a record dated more than MAX_CLOCK_SKEW_MS after `now` is refused. */
export function assertNotInFuture (record: IsnadRecord, now: number, id: string): void {
  const at = Date.parse(timeOf(record))
  if (at > now + MAX_CLOCK_SKEW_MS) {
    throw new IsnadError('TIMESTAMP_IN_FUTURE', `${record.kind} ${id} is dated ${timeOf(record)}, more than 15 minutes ahead`, {
      details: { id, at: timeOf(record) }
    })
  }
}
