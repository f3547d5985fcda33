import { z } from 'zod'
import {
  MAX_BODY_BYTES, MAX_CLAIM_BYTES, MAX_DRAW_POPULATION, MAX_DRAW_SHARDS, MAX_CLAIMS, MAX_CONTEXT_FIELD_BYTES, MAX_DERIVED_FROM, MAX_HASH_BYTES,
  MAX_NOTES_BYTES, MAX_REFERENCE_BYTES, MAX_REQUEST_WITNESSES, MAX_SUMMARY_BYTES, MAX_TAG_BYTES, MAX_TAGS
} from './record-limits.js'
import { anyCid, boundedText, didKey, instantOrder, isoTimestamp, recordCid, signatureBase64, vrfProofBase64 } from './primitives.js'

/** The provenance schema's five content types plus the format spec's `fact` and `commitment` (record-v1 §1.1). */
export const CONTENT_TYPES = ['insight', 'encounter', 'decision', 'correction', 'observation', 'fact', 'commitment'] as const
export const ATTESTATION_VERDICTS = ['confirm', 'dispute', 'partial'] as const
export const ANCHOR_TYPES = ['cid', 'git_commit', 'url', 'moltbook_post', 'blockchain'] as const
export const RECORD_KINDS = ['memory', 'attestation', 'anchor', 'witness_request'] as const

export type ContentType = (typeof CONTENT_TYPES)[number]
export type AttestationVerdict = (typeof ATTESTATION_VERDICTS)[number]
export type AnchorType = (typeof ANCHOR_TYPES)[number]
export type RecordKind = (typeof RECORD_KINDS)[number]

/** record-v1 R3: tags are short, have no whitespace, and appear once each. */
export const TAG_PATTERN = /^\S+$/u
const tag = boundedText(MAX_TAG_BYTES, { min: 1 }).regex(TAG_PATTERN, 'must not contain whitespace')
const tagList = uniqueList(z.array(tag).max(MAX_TAGS), 'tags must be unique')

/** An array whose entries appear once each; JSON Schema's `uniqueItems` says the same exactly. */
function uniqueList<T extends z.ZodArray<z.ZodString>> (list: T, message: string): T {
  return list.refine((items) => new Set(items).size === items.length, { message }).meta({ uniqueItems: true })
}

// record-v1 R2: every record is a closed object (strictObject: unknown fields are refused) with a
// `kind` and `version: 1`; absent optional fields are absent, never null.

export const MemoryContentSchema = z.strictObject({
  type: z.enum(CONTENT_TYPES), // record-v1 R4
  summary: boundedText(MAX_SUMMARY_BYTES, { min: 1 }),
  body: boundedText(MAX_BODY_BYTES, { allowNewlines: true }),
  tags: tagList
})

export const MemoryAuthorSchema = z.strictObject({
  agent_id: didKey,
  platform: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional(),
  handle: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional()
})

export const MemoryContextSchema = z.strictObject({
  session_id: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional(),
  trigger: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1, allowNewlines: true }).optional(),
  confidence: z.number().min(0).max(1) // record-v1 R4: finite (zod refuses NaN and ±Infinity)
})

export const MemoryLineageSchema = z.strictObject({
  supersedes: recordCid.optional(),
  // record-v1 R15
  derived_from: uniqueList(z.array(recordCid).max(MAX_DERIVED_FROM), 'derived_from entries must be unique')
})

export const MemoryRecordSchema = z.strictObject({
  kind: z.literal('memory'),
  version: z.literal(1),
  content: MemoryContentSchema,
  author: MemoryAuthorSchema,
  created_at: isoTimestamp,
  context: MemoryContextSchema,
  lineage: MemoryLineageSchema
})

/**
 * The witness draw an attestation carries (record-v1 R19, protocols/witness-draw-v1.md): the
 * population the witness estimated, and its ECVRF proof over the memory's id under its own key,
 * which says, to anyone, whether the witness was drawn for this memory.
 */
export const AttestationDrawSchema = z.strictObject({
  /** The witness's estimate of how many agents could be drawn (record-v1 R4: an integer, 1 to MAX_DRAW_POPULATION). */
  population: z.number().int().min(1).max(MAX_DRAW_POPULATION),
  /** Unpadded base64 of the 80-byte ECVRF proof (RFC 9381) of the draw input under `witness`'s key. */
  proof: vrfProofBase64,
  /**
   * The shard count the witness was drawn within (record-v1 R19, witness-draw-v1 W12): its population
   * is then its estimate of the agents of the memory's author's shard. Absent: 1, the whole network
   * (so an attestation drawn before shards keeps its bytes and id). A power of two from 2 to 4096.
   */
  shards: z.number().int().min(2).max(MAX_DRAW_SHARDS).refine((n) => (n & (n - 1)) === 0, 'must be a power of two').optional()
})

export const AttestationRecordSchema = z.strictObject({
  kind: z.literal('attestation'),
  version: z.literal(1),
  memory: recordCid,
  witness: didKey,
  attestation: z.enum(ATTESTATION_VERDICTS),
  witnessed_at: isoTimestamp,
  notes: boundedText(MAX_NOTES_BYTES, { allowNewlines: true }).optional(),
  /** For `partial`: which aspects the witness confirms (record-v1 R12). */
  claims: z.array(boundedText(MAX_CLAIM_BYTES, { min: 1 })).min(1).max(MAX_CLAIMS).optional(),
  // record-v1 R12
  /** Present when the witness answers because the draw selected it for this memory (record-v1 R19). */
  draw: AttestationDrawSchema.optional()
}).refine((a) => a.claims === undefined || a.attestation === 'partial', {
  message: 'claims are only allowed on a partial attestation', path: ['claims']
})

/** record-v1 R13: `<algorithm>:<lower-case hex digest>`. */
export const ANCHOR_HASH_PATTERN = /^[a-z0-9-]+:[0-9a-f]+$/

export const AnchorRecordSchema = z.strictObject({
  kind: z.literal('anchor'),
  version: z.literal(1),
  memory: recordCid,
  type: z.enum(ANCHOR_TYPES),
  reference: boundedText(MAX_REFERENCE_BYTES, { min: 1 }),
  /** `<algorithm>:<lower-case hex digest>` of the anchored content, e.g. `sha2-256:9f86…`. */
  hash: boundedText(MAX_HASH_BYTES).regex(ANCHOR_HASH_PATTERN, 'must look like sha2-256:<hex>'), // record-v1 R13
  created_at: isoTimestamp,
  anchored_by: didKey
  // record-v1 R13
}).refine((a) => a.type !== 'cid' || anyCid.safeParse(a.reference).success, {
  message: 'a cid anchor must reference a canonical CIDv1', path: ['reference']
})

export const WitnessRequestRecordSchema = z.strictObject({
  kind: z.literal('witness_request'),
  version: z.literal(1),
  memory: recordCid,
  requester: didKey,
  /** Addressed witnesses, each once (record-v1 R14); absent: open to anyone. */
  witnesses: uniqueList(z.array(didKey).min(1).max(MAX_REQUEST_WITNESSES), 'witnesses must be unique').optional(),
  created_at: isoTimestamp,
  expires_at: isoTimestamp.optional()
}).refine(...instantOrder('expires_at', 'after', 'created_at'))

export const RecordSchema = z.discriminatedUnion('kind', [
  MemoryRecordSchema, AttestationRecordSchema, AnchorRecordSchema, WitnessRequestRecordSchema
])

export type MemoryRecord = z.infer<typeof MemoryRecordSchema>
export type AttestationRecord = z.infer<typeof AttestationRecordSchema>
export type AttestationDraw = z.infer<typeof AttestationDrawSchema>
export type AnchorRecord = z.infer<typeof AnchorRecordSchema>
export type WitnessRequestRecord = z.infer<typeof WitnessRequestRecordSchema>
export type IsnadRecord = z.infer<typeof RecordSchema>

export type RecordOfKind<K extends RecordKind> = Extract<IsnadRecord, { kind: K }>

/** A record with its signature (record-v1 §2.4, R2): the form of every record on disk, in bundles and on the wire. */
export const SignedRecordSchema = z.strictObject({
  record: RecordSchema,
  signature: signatureBase64
})

export interface SignedRecord<R extends IsnadRecord = IsnadRecord> {
  record: R
  /** Unpadded base64 of the Ed25519 signature over the record's signing input (record-v1 §3.3). */
  signature: string
}

export const SCHEMAS_BY_KIND = {
  memory: MemoryRecordSchema,
  attestation: AttestationRecordSchema,
  anchor: AnchorRecordSchema,
  witness_request: WitnessRequestRecordSchema
} as const
