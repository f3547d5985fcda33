import { z } from 'zod'
import { RecordInclusionSchema, type RecordInclusion } from '../merkle/index.js'
import type { AnchorRecord, AttestationRecord, ContentType, MemoryRecord, SignedRecord } from '../schema/index.js'

/*
 * The FDR-Memory v1.2.0 types (decision record §6), as zod schemas because selections and proofs
 * cross trust boundaries: an Authority receives them from an Actor, `isnad verify` reads them from
 * a file, the API from a request.
 */

/**
 * A WorldId is opaque to the memory layer (M-11): never parsed, split or assumed to have a format.
 * Only the MemoryStore, which defines it (here: a memory's CID string), looks inside.
 */
export const WorldIdSchema = z.string().min(1).max(256)
export type WorldId = z.infer<typeof WorldIdSchema>

/** Who selected: an agent did:key or any other actor name (opaque too). */
export const ActorRefSchema = z.string().min(1).max(128)
export type ActorRef = z.infer<typeof ActorRefSchema>

export const MemoryRefSchema = z.strictObject({ worldId: WorldIdSchema })
export type MemoryRef = z.infer<typeof MemoryRefSchema>

/** The decision record's methods are open-ended strings; these are the ones this node proves. */
export const VERIFICATION_METHODS = ['isnad-ed25519', 'merkle-inclusion', 'hash', 'none'] as const
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number]

/** What the pure Verifier produces (§3.5): no time, no actor. */
export const VerificationProofSchema = z.strictObject({
  method: z.enum(VERIFICATION_METHODS),
  proof: z.unknown().optional()
})
export type VerificationProof = z.infer<typeof VerificationProofSchema>

/** The proof wrapped by the Selector with its audit metadata (§3.5, M-9). */
export const VerificationEvidenceSchema = z.strictObject({
  method: z.enum(VERIFICATION_METHODS),
  proof: z.unknown().optional(),
  /** ms since the epoch, from the Selector's clock. */
  verifiedAt: z.number().int().min(0),
  verifiedBy: ActorRefSchema
})
export type VerificationEvidence = z.infer<typeof VerificationEvidenceSchema>

export const SelectedMemorySchema = z.strictObject({
  ref: MemoryRefSchema,
  reason: z.string().min(1).max(4096),
  /** [0, 1]: here the memory's trust score under the node's policy (memory is not truth, M-1). */
  confidence: z.number().min(0).max(1),
  /** Verifier.prove() returned valid: true (§5.2), whatever the method. */
  verified: z.boolean(),
  evidence: VerificationEvidenceSchema.optional()
})
export type SelectedMemory = z.infer<typeof SelectedMemorySchema>

/** @default 1000 — selections in one trace or one submission. */
export const MAX_SELECTED = 1000

export const MemoryTraceSchema = z.strictObject({
  selector: ActorRefSchema,
  query: z.string().max(4096),
  selectedAt: z.number().int().min(0),
  /** The world the selection was made in (here: the node's Merkle log head); opaque (M-11). */
  atWorldId: WorldIdSchema,
  selected: z.array(SelectedMemorySchema).max(MAX_SELECTED)
})
export type MemoryTrace = z.infer<typeof MemoryTraceSchema>

export interface ProveResult {
  valid: boolean
  proof?: VerificationProof
  error?: string
}

/**
 * What the MemoryStore returns for a WorldId: a memory with all the signed evidence the node has,
 * and, when the node's log holds it, the proof that it does.
 */
export interface World {
  id: WorldId
  memory: SignedRecord<MemoryRecord>
  attestations: ReadonlyArray<{ id: string, signed: SignedRecord<AttestationRecord> }>
  anchors: ReadonlyArray<{ id: string, signed: SignedRecord<AnchorRecord> }>
  inclusion?: RecordInclusion
  /** The newest successor by the same author (lineage.superseded_by), when the store knows one. */
  supersededBy?: WorldId
}

/** FDR §6 interfaces. */
export interface MemoryStore {
  get: (worldId: WorldId) => Promise<World | null>
  exists: (worldId: WorldId) => Promise<boolean>
}

export interface MemoryVerifier {
  /** Pure (M-8): the same ref and world always give the same result; no clock, I/O or randomness. */
  prove: (memory: MemoryRef, world: World) => ProveResult
  /** Pure; needs nothing but the proof (M-12), so an Authority can call it without a store. */
  verifyProof: (proof: VerificationProof) => boolean
}

export { RecordInclusionSchema }

export interface SelectionRequest {
  /** Who selects (M-9: the evidence's verifiedBy, the trace's selector). */
  selector: ActorRef
  /** Words that must all appear in the summary, body or tags (case-insensitive); empty: any. */
  query?: string
  tags?: string[]
  author?: string
  type?: ContentType
  /** On the score under the node's policy, recomputed at selection. */
  minTrust?: number
  /** @default DEFAULT_SELECT_LIMIT */
  limit?: number
}
