import type { CID } from 'multiformats/cid'
import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { decodeDidKey, encodeDidKey, keyPairFromSeed, signBytes, type SignatureVerifier } from '../identity/index.js'
import {
  cidOfBytes, cidString, decodeSignature, encodeCanonical, encodeSignature, schemaError, signingInputWithTag
} from '../record/index.js'
import { MAX_CLOCK_SKEW_MS, didKey, isoTimestamp, signatureBase64 } from '../schema/index.js'
import { CHECKPOINT_DOMAIN_TAG, MAX_TREE_SIZE } from './constants.js'
import { EMPTY_ROOT, hashFromHex, hashToHex } from './hash.js'

/*
 * The Checkpoint record (transparency-v1 §5): a node's signed statement "my log had
 * `size` leaves with RFC 6962 root `root` at `created_at`". Encoded, identified and signed like the
 * records of record-v1 (DAG-CBOR, CIDv1 of the unsigned form, Ed25519 over a domain-tagged CID),
 * but kept out of RecordSchema: checkpoints live in the ledger as `memory.checkpointed` events and
 * on the `isnad/v1/checkpoints` topic, not in the record store.
 */

const EMPTY_ROOT_HEX = hashToHex(EMPTY_ROOT)

/** transparency-v1 §5.1, R8–R10. */
export const CheckpointRecordSchema = z.strictObject({
  kind: z.literal('checkpoint'),
  version: z.literal(1),
  /** did:key of the node's signer: the log's identity. */
  log: didKey,
  size: z.number().int().min(0).max(MAX_TREE_SIZE),
  /** MTH of the first `size` leaves, 64 lower-case hex digits. */
  root: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (a SHA-256 hash)'),
  created_at: isoTimestamp
}).refine((c) => c.size !== 0 || c.root === EMPTY_ROOT_HEX, {
  message: 'the root of the empty tree is SHA-256 of the empty string', path: ['root']
})

export type CheckpointRecord = z.infer<typeof CheckpointRecordSchema>

export const SignedCheckpointSchema = z.strictObject({
  record: CheckpointRecordSchema,
  signature: signatureBase64
})

export interface SignedCheckpoint {
  record: CheckpointRecord
  /** Unpadded base64 of the Ed25519 signature over checkpointSigningInput (transparency-v1 §5.2). */
  signature: string
}

/** A checkpoint that passed verifyCheckpoint; `root` is the decoded hash. */
export interface VerifiedCheckpoint {
  id: string
  cid: CID
  signed: SignedCheckpoint
  root: Uint8Array
}

export interface CheckpointFields {
  log: string
  size: number
  root: Uint8Array
  /** UTC ISO-8601 (record-v1 R5); pure code takes time as input. */
  createdAt: string
}

export function createCheckpoint ({ log, size, root, createdAt }: CheckpointFields): CheckpointRecord {
  return { kind: 'checkpoint', version: 1, log, size, root: hashToHex(root), created_at: createdAt }
}

/** The id: CIDv1 (dag-cbor, sha2-256) of the canonical encoding of the unsigned checkpoint (R11). */
export function checkpointCidOf (record: CheckpointRecord): CID {
  return cidOfBytes(encodeCanonical(record))
}

/** `isnad/checkpoint/v1\0` ‖ CID bytes (transparency-v1 §5.2, R12). */
export function checkpointSigningInput (cid: CID): Uint8Array {
  return signingInputWithTag(CHECKPOINT_DOMAIN_TAG, cid)
}

/** Validates `record` and signs it with `secretKey`, which must be the key of `record.log`. */
export function signCheckpoint (record: CheckpointRecord, secretKey: Uint8Array): { id: string, signed: SignedCheckpoint } {
  const parsed = CheckpointRecordSchema.safeParse(record)
  if (!parsed.success) throw schemaError(parsed.error, 'checkpoint')
  if (encodeDidKey(keyPairFromSeed(secretKey).publicKey) !== record.log) {
    throw new IsnadError('KEY_INVALID', `the signing key is not ${record.log}, the checkpoint's log`)
  }
  const cid = checkpointCidOf(record)
  const signature = signBytes(checkpointSigningInput(cid), secretKey)
  return { id: cidString(cid), signed: { record, signature: encodeSignature(signature) } }
}

export interface VerifyCheckpointOptions {
  /** The verifier's clock (ms since the epoch); when given, a checkpoint dated > 15 min ahead is refused (R13). */
  now?: number
}

/**
 * The pipeline of transparency-v1 §5.3, each step throwing its own code: schema (SCHEMA_INVALID) →
 * signer key (DID_INVALID) → signature encoding (SIGNATURE_MALFORMED) → signature (SIGNATURE_INVALID)
 * → freshness (TIMESTAMP_IN_FUTURE, when `now` is given).
 */
export function verifyCheckpoint (input: unknown, verifier: SignatureVerifier, options: VerifyCheckpointOptions = {}): VerifiedCheckpoint {
  const result = SignedCheckpointSchema.safeParse(input)
  if (!result.success) throw schemaError(result.error, 'checkpoint')
  const signed: SignedCheckpoint = result.data
  const { record } = signed
  const cid = checkpointCidOf(record)
  const id = cidString(cid)
  const publicKey = decodeDidKey(record.log)
  const signature = decodeSignature(signed.signature)
  if (!verifier.verify(signature, checkpointSigningInput(cid), publicKey)) {
    throw new IsnadError('SIGNATURE_INVALID', `signature of checkpoint ${id} does not verify`, {
      details: { id, kind: 'checkpoint', signer: record.log }
    })
  }
  if (options.now !== undefined && Date.parse(record.created_at) > options.now + MAX_CLOCK_SKEW_MS) {
    throw new IsnadError('TIMESTAMP_IN_FUTURE', `checkpoint ${id} is dated ${record.created_at}, more than 15 minutes ahead`, {
      details: { id, at: record.created_at }
    })
  }
  return { id, cid, signed, root: hashFromHex(record.root, 'checkpoint root') }
}
