import { z } from 'zod'
import {
  MemoryIdParamsSchema, QueryParamsSchema, RememberBodySchema, SignerFieldsSchema, VerifyBodySchema, WitnessRequestBodySchema
} from '../api/schemas/requests.js'
import { AnchorSourceSchema } from '../anchor/index.js'
import { SelectRequestSchema } from '../fdr/index.js'
import { AttestationRecordSchema, recordCid } from '../schema/index.js'

/*
 * The MCP tools' inputs are the HTTP API's request schemas (src/api/schemas/requests.ts), which
 * reuse each record field's own schema, so a tool call is refused for exactly what the API and the
 * record layer refuse. The one difference: no `passphrase` field. A key's passphrase never passes
 * through the model's context; the server process reads it from --passphrase-file or
 * $ISNAD_PASSPHRASE, as the CLI does.
 */

export const RememberToolInput = RememberBodySchema.omit({ passphrase: true })

export const RequestWitnessesToolInput = WitnessRequestBodySchema.omit({ passphrase: true })

/** AttestBodySchema plus the memory (a path parameter in the API), with the same partial-only claims rule. */
export const AttestToolInput = z.strictObject({
  memory: recordCid.meta({ description: 'the memory id (CID) to witness' }),
  verdict: AttestationRecordSchema.shape.attestation,
  notes: AttestationRecordSchema.shape.notes,
  claims: AttestationRecordSchema.shape.claims,
  as: SignerFieldsSchema.shape.as
}).refine((b) => b.claims === undefined || b.verdict === 'partial', {
  message: 'claims are only allowed on a partial attestation', path: ['claims']
})

/** The API's AddAnchorBody (src/api/routes/anchors.ts) plus the memory, its path parameter there. */
export const AnchorToolInput = z.strictObject({
  memory: recordCid.meta({ description: 'the memory id (CID) to anchor' }),
  anchor: AnchorSourceSchema.meta({ description: 'where the evidence comes from: a file, a CID, a git commit, a URL, a Moltbook post or a blockchain reference' }),
  as: SignerFieldsSchema.shape.as
})

export const CheckAnchorsToolInput = z.strictObject({
  memory: recordCid.optional().meta({ description: 'only this memory\'s anchors; absent: every anchor' })
})

/** FDR-Memory selection (M-6, M-9): the same schema as POST /v1/select. */
export const SelectToolInput = SelectRequestSchema

export const MemoryIdToolInput = MemoryIdParamsSchema

export const QueryToolInput = QueryParamsSchema

export const VerifyToolInput = z.strictObject({
  document: VerifyBodySchema
})

export const NoToolInput = z.strictObject({})

export type RememberToolArgs = z.infer<typeof RememberToolInput>
export type AttestToolArgs = z.infer<typeof AttestToolInput>
