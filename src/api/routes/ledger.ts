import { createRoute } from '@hono/zod-openapi'
import { SignedCheckpointSchema } from '../../merkle/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { RecordIdParamsSchema } from '../schemas/requests.js'
import {
  ObserveResultSchema, RecordInclusionResponseSchema, ReindexResultSchema, SignedCheckpointResponseSchema
} from '../schemas/responses.js'
import { BASE_ERRORS, BODY_ERRORS, ERRORS, json, limitBody, type ApiApp } from './common.js'

const reindex = createRoute({
  method: 'post',
  path: '/v1/ledger/reindex',
  summary: 'ledger reindex: rebuild the LevelDB index from the ledgers alone',
  description: 'Other requests wait while the index is rebuilt.',
  responses: { 200: { description: 'what was rebuilt', content: json(ReindexResultSchema) }, ...BASE_ERRORS, 409: ERRORS[409] }
})

const prove = createRoute({
  method: 'get',
  path: '/v1/ledger/prove/{cid}',
  summary: 'ledger prove: a self-contained proof that a record is in this node\'s signed Merkle log',
  description: 'Check it with POST /v1/verify. The proof is against a checkpoint that covers the record, signed now if the newest one does not.',
  request: { params: RecordIdParamsSchema },
  responses: { 200: { description: 'the record inclusion proof', content: json(RecordInclusionResponseSchema) }, ...BASE_ERRORS, 400: ERRORS[400], 404: ERRORS[404] }
})

const checkpoint = createRoute({
  method: 'get',
  path: '/v1/ledger/checkpoint',
  summary: 'ledger checkpoint: the newest checkpoint this node signed over its log',
  responses: { 200: { description: 'the signed checkpoint', content: json(SignedCheckpointResponseSchema) }, ...BASE_ERRORS, 404: ERRORS[404] }
})

const observe = createRoute({
  method: 'post',
  path: '/v1/ledger/observe',
  summary: 'ledger observe: keep a signed checkpoint of some log; a conflicting one is recorded as proof of misbehaviour',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(SignedCheckpointSchema), required: true } },
  responses: { 200: { description: 'new, known or conflict', content: json(ObserveResultSchema) }, ...BODY_ERRORS, 422: ERRORS[422] }
})

export function registerLedgerRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(reindex, async (c) => c.json(await node.reindex(), 200))

  app.openapi(prove, async (c) => c.json(await node.proveRecord(c.req.valid('param').cid), 200))

  app.openapi(checkpoint, async (c) => c.json(await node.latestCheckpoint(), 200))

  app.openapi(observe, async (c) => c.json({ outcome: await node.observeCheckpoint(c.req.valid('json')) }, 200))
}
