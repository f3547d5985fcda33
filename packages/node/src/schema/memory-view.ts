import { z } from 'zod'
import { MAX_BUNDLE_RECORDS } from './record-limits.js'
import {
  AnchorRecordSchema, AttestationDrawSchema, ATTESTATION_VERDICTS, MemoryContentSchema, MemoryContextSchema, SignedRecordSchema
} from './records.js'
import { didKey, isoTimestamp, recordCid, signatureBase64 } from './primitives.js'

/** Verification states of an anchor (protocols/anchors-v1.md §5; `unchecked`: no check has run yet on this node). */
export const ANCHOR_STATES = ['verified', 'mismatch', 'unreachable', 'unverifiable', 'unchecked'] as const
export type AnchorState = (typeof ANCHOR_STATES)[number]

export const AnchorVerificationSchema = z.strictObject({
  state: z.enum(ANCHOR_STATES),
  reason: z.string().max(1024).optional(),
  checked_at: isoTimestamp.optional()
})
export type AnchorVerification = z.infer<typeof AnchorVerificationSchema>

/** One witness as the provenance schema prints it, plus the attestation's own id and signature. */
export const WitnessViewSchema = z.strictObject({
  id: recordCid,
  agent_id: didKey,
  witnessed_at: isoTimestamp,
  attestation: z.enum(ATTESTATION_VERDICTS),
  signature: signatureBase64,
  notes: z.string().optional(),
  claims: z.array(z.string()).optional(),
  /** The attestation's witness draw (record-v1 R19), part of what its signature covers. */
  draw: AttestationDrawSchema.optional()
})

export const AnchorViewSchema = z.strictObject({
  id: recordCid,
  type: AnchorRecordSchema.shape.type,
  reference: z.string(),
  created_at: isoTimestamp,
  hash: z.string(),
  anchored_by: didKey,
  signature: signatureBase64,
  verification: AnchorVerificationSchema
})

/**
 * How a memory this node did not hold reached it for this view (protocols/content-routing-v1.md C7):
 * found by its CID through the DHT and fetched from a provider, so it lies outside what the node
 * follows and comes with only the evidence that provider sent. Absent for memories the node held.
 */
export const MemoryOriginSchema = z.strictObject({
  kind: z.literal('fetched'),
  /** The peer id of the provider that served it. */
  from: z.string().min(1).max(128),
  /** The providers asked, in order, the last one `from`. */
  providers: z.array(z.string().min(1).max(128)).min(1).max(16),
  /** DHT hops from this node to the peer that held the provider record. */
  hops: z.number().int().min(0),
  reason: z.string().min(1)
})
export type MemoryOrigin = z.infer<typeof MemoryOriginSchema>

/**
 * The memory view: exactly the provenance schema's JSON shape (record-v1 §7). Witnesses, anchors and
 * trust are gathered after creation, so they sit outside the author's signature; each witness and
 * anchor carries its own. `verify` rebuilds every record from this shape and checks it (record-v1 §7).
 */
export const MemoryViewSchema = z.strictObject({
  id: recordCid,
  version: z.literal(1),
  content: MemoryContentSchema,
  provenance: z.strictObject({
    author: z.strictObject({
      agent_id: didKey,
      platform: z.string().optional(),
      handle: z.string().optional(),
      signature: signatureBase64
    }),
    created_at: isoTimestamp,
    context: MemoryContextSchema
  }),
  witnesses: z.array(WitnessViewSchema),
  anchors: z.array(AnchorViewSchema),
  lineage: z.strictObject({
    supersedes: recordCid.nullable(),
    superseded_by: recordCid.nullable(),
    derived_from: z.array(recordCid),
    chain_depth: z.number().int().min(0)
  }),
  /** Computed locally by the node that printed the view; a verifier recomputes it. */
  trust: z.unknown(),
  /** Present when this view fetched the memory from outside the node's interests (content-routing-v1 C7). */
  origin: MemoryOriginSchema.optional()
})
export type MemoryView = z.infer<typeof MemoryViewSchema>

export const BUNDLE_FORMAT = 'isnad-bundle/v1'

/** An export bundle: signed records, verified whole on import (record-v1 §6). */
export const BundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  exported_at: isoTimestamp,
  records: z.array(SignedRecordSchema).max(MAX_BUNDLE_RECORDS)
})
export type Bundle = z.infer<typeof BundleSchema>
