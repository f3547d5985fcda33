import { z } from 'zod'
import { cidString, recordCidOf } from '../record/index.js'
import { MemoryRecordSchema } from '../schema/index.js'
import { invalid, VALID, type ProofVerdict } from './proof-check.js'
import { WorldIdSchema, type World } from './types.js'

/**
 * Method `hash`: the unsigned memory record, whose canonical DAG-CBOR must hash to the WorldId
 * (record-v1 §2: the CID of the unsigned form). Proves integrity only: that this is the content the
 * id names, not who wrote it. The cheapest method; an Authority wanting authorship asks for
 * isnad-ed25519 (the decision record's §5.1: requireEvidence is presence, method policy is separate).
 */
export const HashProofSchema = z.strictObject({
  worldId: WorldIdSchema,
  record: MemoryRecordSchema
})
export type HashProof = z.infer<typeof HashProofSchema>

export function proveHash (world: World): HashProof | ProofVerdict {
  const proof = { worldId: world.id, record: world.memory.record }
  const verdict = verifyHash(proof)
  return verdict.valid ? proof : verdict
}

export function verifyHash (input: unknown): ProofVerdict {
  const parsed = HashProofSchema.safeParse(input)
  if (!parsed.success) return invalid('SCHEMA_INVALID', `not a hash proof: ${parsed.error.issues[0]?.message ?? ''}`)
  const id = cidString(recordCidOf(parsed.data.record))
  return id === parsed.data.worldId ? VALID : invalid('CID_MISMATCH', `the record hashes to ${id}, not ${parsed.data.worldId}`)
}
