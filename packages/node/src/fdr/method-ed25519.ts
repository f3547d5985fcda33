import { z } from 'zod'
import type { SignatureVerifier } from '../identity/index.js'
import { SignedRecordSchema } from '../schema/index.js'
import { checkProofMemory, checkSigned, invalid, isVerdict, VALID, type ProofVerdict } from './proof-check.js'
import { WorldIdSchema, type World } from './types.js'

/** @default 4096 — attestations and anchors in one proof together (a bound on what an Authority checks). */
export const MAX_PROOF_EVIDENCE = 4096

/**
 * Method `isnad-ed25519`: the memory and every attestation and anchor of it, each with its Ed25519
 * signature. Proves who said what about the memory, checkable with nothing but the proof.
 */
export const Ed25519ProofSchema = z.strictObject({
  worldId: WorldIdSchema,
  memory: SignedRecordSchema,
  attestations: z.array(SignedRecordSchema).max(MAX_PROOF_EVIDENCE),
  anchors: z.array(SignedRecordSchema).max(MAX_PROOF_EVIDENCE)
}).refine((p) => p.attestations.length + p.anchors.length <= MAX_PROOF_EVIDENCE, { message: 'too much evidence in one proof' })
export type Ed25519Proof = z.infer<typeof Ed25519ProofSchema>

/** The proof of a world: only the records whose signatures verify (deterministic: input order kept). */
export function proveEd25519 (world: World, signatures: SignatureVerifier): Ed25519Proof | ProofVerdict {
  const memory = checkSigned(world.memory, 'memory', signatures)
  if (isVerdict(memory)) return memory
  if (memory.id !== world.id) return invalid('CID_MISMATCH', `the world's memory hashes to ${memory.id}, not ${world.id}`)
  const belongs = (r: { record: { memory: string } }): boolean => r.record.memory === world.id
  return {
    worldId: world.id,
    memory: world.memory,
    attestations: world.attestations.map((a) => a.signed).filter((a) => belongs(a) && !isVerdict(checkSigned(a, 'attestation', signatures))),
    anchors: world.anchors.map((a) => a.signed).filter((a) => belongs(a) && !isVerdict(checkSigned(a, 'anchor', signatures)))
  }
}

export function verifyEd25519 (input: unknown, signatures: SignatureVerifier): ProofVerdict {
  const proof = checkProofMemory(Ed25519ProofSchema, 'an isnad-ed25519', input, signatures)
  if ('valid' in proof) return proof
  for (const [kind, records] of [['attestation', proof.attestations], ['anchor', proof.anchors]] as const) {
    for (const record of records) {
      const checked = checkSigned(record, kind, signatures)
      if (isVerdict(checked)) return checked
      const about = (checked.signed.record as { memory: string }).memory
      if (about !== proof.worldId) return invalid('WRONG_MEMORY', `${kind} ${checked.id} is about ${about}, not ${proof.worldId}`)
    }
  }
  return VALID
}
