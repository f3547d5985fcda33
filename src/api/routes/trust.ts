import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { SelectRequestSchema, SelectedMemorySchema } from '../../fdr/index.js'
import { AgentReputationSchema, TrustRootSchema } from '../../reputation/index.js'
import { didKey } from '../../schema/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { DidParamsSchema } from '../schemas/requests.js'
import { BASE_ERRORS, BODY_ERRORS, ERRORS, json, limitBody, type ApiApp } from './common.js'

const RootsSchema = z.strictObject({ roots: z.array(TrustRootSchema) })
const RootBodySchema = z.strictObject({ did: didKey })

const select = createRoute({
  method: 'post',
  path: '/v1/select',
  summary: 'select: FDR-Memory selection with reason, confidence, verified and evidence; the trace goes to the ledger',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(SelectRequestSchema), required: true } },
  responses: { 200: { description: 'the selected memories', content: json(z.strictObject({ selected: z.array(SelectedMemorySchema) })) }, ...BODY_ERRORS }
})

const listRoots = createRoute({
  method: 'get',
  path: '/v1/trust/roots',
  summary: 'trust root list: the operator\'s trust roots',
  responses: { 200: { description: 'the roots, oldest first', content: json(RootsSchema) }, ...BASE_ERRORS }
})

const addRoot = createRoute({
  method: 'post',
  path: '/v1/trust/roots',
  summary: 'trust root add: reputation flows from the roots',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(RootBodySchema), required: true } },
  responses: { 201: { description: 'the roots after the change', content: json(RootsSchema) }, ...BODY_ERRORS, 409: ERRORS[409] }
})

const removeRoot = createRoute({
  method: 'post',
  path: '/v1/trust/roots/remove',
  summary: 'trust root remove',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(RootBodySchema), required: true } },
  responses: { 200: { description: 'the roots after the change', content: json(RootsSchema) }, ...BODY_ERRORS, 404: ERRORS[404] }
})

const reputation = createRoute({
  method: 'get',
  path: '/v1/reputation/{did}',
  summary: 'get_reputation: an agent\'s reputation from this node\'s trust roots, its rank and path from a root',
  request: { params: DidParamsSchema },
  responses: { 200: { description: 'the reputation', content: json(AgentReputationSchema) }, ...BASE_ERRORS, 400: ERRORS[400] }
})

export function registerTrustRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(select, async (c) => c.json({ selected: await node.select(c.req.valid('json')) }, 200))
  app.openapi(listRoots, async (c) => c.json({ roots: await node.listTrustRoots() }, 200))
  app.openapi(addRoot, async (c) => c.json({ roots: await node.addTrustRoot(c.req.valid('json').did) }, 201))
  app.openapi(removeRoot, async (c) => c.json({ roots: await node.removeTrustRoot(c.req.valid('json').did) }, 200))
  app.openapi(reputation, async (c) => c.json(await node.reputation(c.req.valid('param').did), 200))
}
