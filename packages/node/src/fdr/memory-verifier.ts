import type { SignatureVerifier } from '../identity/index.js'
import { proveEd25519, verifyEd25519 } from './method-ed25519.js'
import { proveHash, verifyHash } from './method-hash.js'
import { proveMerkle, verifyMerkle } from './method-merkle.js'
import { invalid, type ProofVerdict } from './proof-check.js'
import {
  VerificationProofSchema, type MemoryRef, type MemoryVerifier, type ProveResult, type VerificationMethod,
  type VerificationProof, type World
} from './types.js'

export interface MemoryVerifierInit {
  /** Ed25519 with the project's strict policy: nodeCryptoVerifier in the node, nobleVerifier in a browser. */
  signatures: SignatureVerifier
  /** The method `prove` uses. @default 'isnad-ed25519' */
  method?: Exclude<VerificationMethod, 'none'>
}

/**
 * The MemoryVerifier (FDR §3.3–3.4, M-7, M-8): pure. `prove` looks at nothing but its arguments and
 * `verifyProof` at nothing but the proof; no clock, no I/O, no randomness (test/unit/fdr/purity
 * checks the folder's imports; test/unit/fdr/verifier.test.ts that equal inputs give equal outputs).
 * `verifyProof` accepts a proof of any of the three methods, whichever `prove` is set to.
 */
export function createMemoryVerifier (init: MemoryVerifierInit): MemoryVerifier & { explainProof: (proof: unknown) => ProofVerdict } {
  const method = init.method ?? 'isnad-ed25519'
  const explainProof = (input: unknown): ProofVerdict => checkProof(input, init.signatures)
  return {
    prove (ref: MemoryRef, world: World): ProveResult {
      // WorldIds are compared, never parsed (M-11).
      if (ref.worldId !== world.id) return { valid: false, error: `the world given is ${world.id}, not ${ref.worldId}` }
      const proof = method === 'isnad-ed25519'
        ? proveEd25519(world, init.signatures)
        : method === 'merkle-inclusion' ? proveMerkle(world, init.signatures) : proveHash(world)
      if ('valid' in proof) return { valid: false, error: `${proof.code ?? 'INVALID'}: ${proof.reason ?? ''}` }
      return { valid: true, proof: { method, proof } }
    },
    verifyProof: (proof: VerificationProof): boolean => explainProof(proof).valid,
    explainProof
  }
}

/** verifyProof with the reason: the shape first, then the method's own checks. */
function checkProof (input: unknown, signatures: SignatureVerifier): ProofVerdict {
  const parsed = VerificationProofSchema.safeParse(input)
  if (!parsed.success) return invalid('SCHEMA_INVALID', 'not a verification proof { method, proof }')
  const { method, proof } = parsed.data
  switch (method) {
    case 'isnad-ed25519': return verifyEd25519(proof, signatures)
    case 'merkle-inclusion': return verifyMerkle(proof, signatures)
    case 'hash': return verifyHash(proof)
    case 'none': return invalid('NO_PROOF', 'method none carries nothing to verify')
  }
}

/** The WorldId a proof of one of this node's methods is about, for the Authority's binding check. */
export function subjectOfProof (proof: VerificationProof): string | undefined {
  const subject = (proof.proof as { worldId?: unknown } | null | undefined)?.worldId
  return typeof subject === 'string' ? subject : undefined
}
