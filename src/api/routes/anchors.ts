import { createRoute, z } from '@hono/zod-openapi'
import { AnchorSourceSchema, type AnchorCheck } from '../../anchor/index.js'
import { ANCHOR_TYPES, isoTimestamp, recordCid } from '../../schema/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { MemoryIdParamsSchema, SignerFieldsSchema } from '../schemas/requests.js'
import { MemoryViewResponseSchema } from '../schemas/responses.js'
import { BODY_ERRORS, ERRORS, SIGNING_ERRORS, json, limitBody, withSigner, type ApiApp } from './common.js'

/* Anchors (protocols/anchors-v1.md): `isnad anchor add` and `isnad anchor check` over HTTP. */

const checkedState = z.enum(['verified', 'mismatch', 'unreachable', 'unverifiable'])

export const AnchorCheckSchema = z.strictObject({
  id: recordCid,
  memory: recordCid,
  type: z.enum(ANCHOR_TYPES),
  reference: z.string(),
  state: checkedState,
  reason: z.string(),
  checked_at: isoTimestamp,
  drift: z.boolean().optional(),
  previous: checkedState.optional()
}).meta({ id: 'AnchorCheck' })

export const AddAnchorBodySchema = SignerFieldsSchema.extend({
  anchor: AnchorSourceSchema.meta({ description: 'where the evidence comes from: a file, a CID, a git commit, a URL, a Moltbook post or a blockchain reference' })
})

export const AddAnchorResultSchema = z.strictObject({
  anchor: recordCid.meta({ description: 'the new anchor\'s id' }),
  memory: MemoryViewResponseSchema
})

export const CheckAnchorsBodySchema = z.strictObject({
  memory: recordCid.optional().meta({ description: 'only this memory\'s anchors; absent: every anchor' })
})

const add = createRoute({
  method: 'post',
  path: '/v1/memories/{id}/anchors',
  summary: 'anchor add: prepare the evidence, sign an Anchor, store and check it',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { params: MemoryIdParamsSchema, body: { content: json(AddAnchorBodySchema), required: true } },
  responses: { 201: { description: 'the anchor\'s id and the memory\'s new view', content: json(AddAnchorResultSchema) }, ...SIGNING_ERRORS }
})

const check = createRoute({
  method: 'post',
  path: '/v1/anchors/check',
  summary: 'anchor check: re-verify anchors now, whatever their cached state',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(CheckAnchorsBodySchema), required: true } },
  responses: { 200: { description: 'one check per anchor', content: json(z.strictObject({ checks: z.array(AnchorCheckSchema) })) }, ...BODY_ERRORS, 404: ERRORS[404] }
})

export function registerAnchorRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(add, async (c) => {
    const { as, passphrase, anchor } = c.req.valid('json')
    const memory = c.req.valid('param').id
    const result = await withSigner(node, { as, passphrase }, async (signer) => await node.addAnchor({ ...anchor, memory }, signer))
    return c.json({ anchor: result.id, memory: result.view }, 201)
  })

  app.openapi(check, async (c) => {
    const checks: AnchorCheck[] = await node.checkAnchors(c.req.valid('json').memory)
    return c.json({ checks }, 200)
  })
}
