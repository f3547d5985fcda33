import { z } from 'zod'
import { MAX_LABEL_BYTES } from '../../keys/index.js'
import {
  AttestationRecordSchema, BundleSchema, CONTENT_TYPES, MAX_BUNDLE_RECORDS, MAX_REQUEST_WITNESSES,
  MemoryAuthorSchema, MemoryContentSchema, MemoryContextSchema, MemoryLineageSchema, boundedText, didKey,
  isoTimestamp, recordCid, utf8Length
} from '../../schema/index.js'
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT } from '../../store/index.js'
import { MAX_CURSOR_LENGTH, MAX_PASSPHRASE_BYTES } from '../constants.js'

/*
 * Request shapes. Every field a record will carry reuses that field's record schema (src/schema), so
 * a bad value is refused with 400 and the record's own code (SCHEMA_INVALID, FIELD_TOO_LARGE) before
 * anything is signed or stored. Bodies are closed objects: an unknown field is a typo, refused.
 */

const passphrase = z.string().min(1)
  .refine((p) => utf8Length(p) <= MAX_PASSPHRASE_BYTES, { message: `longer than ${MAX_PASSPHRASE_BYTES} UTF-8 bytes` })
  .meta({ description: 'Decrypts the signing key when it is passphrase-encrypted. Never stored or logged.' })

/** Operations that sign name the key (`as`, default: the node's default key) and may unlock it. */
export const SignerFieldsSchema = z.strictObject({
  as: didKey.optional().meta({ description: 'did:key of the local agent that signs; default: the default key' }),
  passphrase: passphrase.optional()
})

export const MemoryIdParamsSchema = z.object({
  id: recordCid.meta({ description: 'a memory id (CID)' })
})

export const RecordIdParamsSchema = z.object({
  cid: recordCid.meta({ description: 'a record id (CID)' })
})

export const DidParamsSchema = z.object({
  did: didKey.meta({ description: 'a did:key' })
})

export const CreateKeyBodySchema = z.strictObject({
  label: boundedText(MAX_LABEL_BYTES).optional(),
  default: z.boolean().optional().meta({ description: 'make it the default signing key' }),
  passphrase: passphrase.optional().meta({ description: 'encrypt the new key with this passphrase' })
})

/** `isnad remember`: the record's own field schemas, in the CLI's (and RememberInput's) names. */
export const RememberBodySchema = SignerFieldsSchema.extend({
  type: z.enum(CONTENT_TYPES).default('observation'),
  summary: MemoryContentSchema.shape.summary,
  body: MemoryContentSchema.shape.body.optional().meta({ description: 'the full content; default: the summary' }),
  tags: MemoryContentSchema.shape.tags.optional(),
  confidence: MemoryContextSchema.shape.confidence.optional(),
  trigger: MemoryContextSchema.shape.trigger,
  sessionId: MemoryContextSchema.shape.session_id,
  platform: MemoryAuthorSchema.shape.platform,
  handle: MemoryAuthorSchema.shape.handle,
  supersedes: MemoryLineageSchema.shape.supersedes,
  derivedFrom: MemoryLineageSchema.shape.derived_from.optional()
})

export const AttestBodySchema = SignerFieldsSchema.extend({
  verdict: AttestationRecordSchema.shape.attestation,
  notes: AttestationRecordSchema.shape.notes,
  claims: AttestationRecordSchema.shape.claims
}).refine((b) => b.claims === undefined || b.verdict === 'partial', {
  message: 'claims are only allowed on a partial attestation', path: ['claims']
})

const oneOrMany = <T extends z.ZodType>(item: T): z.ZodUnion<[T, z.ZodArray<T>]> => z.union([item, z.array(item)])

/**
 * `isnad query`; query strings are text, so numbers are coerced. `tag` repeats: `?tag=a&tag=b`.
 * The `type` metadata keeps the OpenAPI document from calling a coerced number nullable (a coerced
 * schema accepts null, which a query string cannot carry anyway).
 */
export const QueryParamsSchema = z.object({
  tag: oneOrMany(MemoryContentSchema.shape.tags.element).optional().meta({ description: 'required tag; repeat for several (all must match)' }),
  minTrust: z.coerce.number().min(0).max(1).optional().meta({ type: 'number', minimum: 0, maximum: 1 }),
  type: z.enum(CONTENT_TYPES).optional(),
  author: didKey.optional(),
  since: isoTimestamp.optional().meta({ description: 'created at or after (inclusive)' }),
  until: isoTimestamp.optional().meta({ description: 'created before (exclusive)' }),
  limit: z.coerce.number().int().min(1).max(MAX_QUERY_LIMIT).optional().meta({ type: 'integer', minimum: 1, maximum: MAX_QUERY_LIMIT, description: `page size, default ${DEFAULT_QUERY_LIMIT}` }),
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional().meta({ description: 'the `next` of a previous page' })
})

/** `isnad verify`: a memory view, an export bundle or a record inclusion proof, checked offline. */
export const VerifyBodySchema = z.record(z.string(), z.unknown()).meta({
  description: 'A memory view (GET /v1/memories/{id}), an export bundle (POST /v1/export) or a record inclusion proof (GET /v1/ledger/prove/{cid}).'
})

export const ExportBodySchema = z.strictObject({
  ids: z.array(recordCid).min(1).max(MAX_BUNDLE_RECORDS).meta({ description: 'memory ids (CIDs)' })
})

/** `isnad import`: a bundle; each record is then verified, and any bad one refuses the whole bundle. */
export const ImportBodySchema = BundleSchema

export const WitnessRequestBodySchema = SignerFieldsSchema.extend({
  memory: recordCid,
  to: z.array(didKey).min(1).max(MAX_REQUEST_WITNESSES).optional()
    .refine((to) => to === undefined || new Set(to).size === to.length, { message: 'witnesses must be unique' })
    .meta({ description: 'addressed witnesses; absent: an open request any node may answer' }),
  expiresAt: isoTimestamp.optional()
})

export type RememberBody = z.infer<typeof RememberBodySchema>
export type AttestBody = z.infer<typeof AttestBodySchema>
export type QueryParams = z.infer<typeof QueryParamsSchema>
export type WitnessRequestBody = z.infer<typeof WitnessRequestBodySchema>
