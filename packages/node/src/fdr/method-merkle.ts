import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { RecordInclusionSchema, verifyRecordInclusion } from '../merkle/index.js'
import { SignedRecordSchema } from '../schema/index.js'
import { checkProofMemory, invalid, VALID, type ProofVerdict } from './proof-check.js'
import { WorldIdSchema, type World } from './types.js'

/**
 * Method `merkle-inclusion` (the decision record's Appendix E reference method): the signed memory
 * and the RFC 6962 proof that its CID is a leaf of a node's log, under that log's signed checkpoint
 * (src/merkle record inclusion, transparency-v1 §4.4). Proves the memory existed in that log by the
 * checkpoint's time, and who wrote it.
 */
export const MerkleProofSchema = z.strictObject({
  worldId: WorldIdSchema,
  memory: SignedRecordSchema,
  inclusion: RecordInclusionSchema
})
export type MerkleProof = z.infer<typeof MerkleProofSchema>

export function proveMerkle (world: World, signatures: SignatureVerifier): MerkleProof | ProofVerdict {
  if (world.inclusion === undefined) return invalid('NOT_FOUND', `no inclusion proof for ${world.id}: the memory is not in a signed log yet`)
  const proof = { worldId: world.id, memory: world.memory, inclusion: world.inclusion }
  const verdict = verifyMerkle(proof, signatures)
  return verdict.valid ? proof : verdict
}

export function verifyMerkle (input: unknown, signatures: SignatureVerifier): ProofVerdict {
  const proof = checkProofMemory(MerkleProofSchema, 'a merkle-inclusion', input, signatures)
  if ('valid' in proof) return proof
  if (proof.inclusion.record !== proof.worldId) {
    return invalid('WRONG_MEMORY', `the inclusion proof is for ${proof.inclusion.record}, not ${proof.worldId}`)
  }
  try {
    // No `now`: the checkpoint's own freshness is a clock question, which the Verifier has none of.
    return verifyRecordInclusion(proof.inclusion, signatures)
      ? VALID
      : invalid('PROOF_INVALID', 'the inclusion proof does not lead to the checkpoint\'s root')
  } catch (err) {
    if (err instanceof IsnadError) return invalid(err.code, err.message)
    throw err
  }
}
