import { z } from 'zod'
import type { SignatureVerifier } from '../identity/index.js'
import { schemaError } from '../record/index.js'
import { recordCid } from '../schema/index.js'
import { SignedCheckpointSchema, verifyCheckpoint, type SignedCheckpoint } from './checkpoint.js'
import { hashLeaf } from './hash.js'
import { leafDataOfCid } from './leaf.js'
import type { MerkleLog } from './log.js'
import { InclusionProofJsonSchema, inclusionProofFromJson, inclusionProofToJson, type InclusionProofJson } from './proof-json.js'
import { verifyInclusion } from './verify-proof.js'

/*
 * A record proven to be in a node's log (transparency-v1 §4.4): its id, the inclusion proof of its
 * CID bytes, and the signed checkpoint whose root the proof leads to. Self-contained: checked with
 * nothing but itself (FDR M-12), as `isnad ledger prove <cid>` prints it and proof bundles carry it.
 */

export const RecordInclusionSchema = z.strictObject({
  record: recordCid,
  proof: InclusionProofJsonSchema,
  checkpoint: SignedCheckpointSchema
})

export interface RecordInclusion {
  record: string
  proof: InclusionProofJson
  checkpoint: SignedCheckpoint
}

/**
 * The proof that record `id` is in the tree `checkpoint` signs (its size, which must not exceed the
 * log's), or undefined when the record is not among its first `size` leaves.
 */
export async function proveRecordInclusion (log: MerkleLog, id: string, checkpoint: SignedCheckpoint): Promise<RecordInclusion | undefined> {
  const found = await log.proveInclusionOf(leafDataOfCid(id), checkpoint.record.size)
  if (found === undefined) return undefined
  return { record: id, proof: inclusionProofToJson(found.proof), checkpoint }
}

/**
 * transparency-v1 §4.4: the checkpoint verifies (its codes thrown as verifyCheckpoint throws them),
 * and the proof, for a tree of exactly the checkpoint's size, leads from SHA-256(0x00 ‖ CID bytes)
 * to the checkpoint's root. False when the proof does not; SCHEMA_INVALID / PROOF_MALFORMED for
 * input that is not a record inclusion at all.
 */
export function verifyRecordInclusion (input: unknown, verifier: SignatureVerifier, options: { now?: number } = {}): boolean {
  const parsed = RecordInclusionSchema.safeParse(input)
  if (!parsed.success) throw schemaError(parsed.error, 'record inclusion')
  const { record, proof, checkpoint } = parsed.data
  const verified = verifyCheckpoint(checkpoint, verifier, options)
  const inclusion = inclusionProofFromJson(proof)
  if (inclusion.treeSize !== verified.signed.record.size) return false
  return verifyInclusion(hashLeaf(leafDataOfCid(record)), inclusion, verified.root)
}
