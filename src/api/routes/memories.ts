import { createRoute } from '@hono/zod-openapi'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { AttestBodySchema, MemoryIdParamsSchema, QueryParamsSchema, RememberBodySchema } from '../schemas/requests.js'
import {
  AttestResultSchema, MemoryViewResponseSchema, QueryPageSchema, TrustResultResponseSchema
} from '../schemas/responses.js'
import { BASE_ERRORS, ERRORS, SIGNING_ERRORS, json, limitBody, withSigner, type ApiApp } from './common.js'

const remember = createRoute({
  method: 'post',
  path: '/v1/memories',
  summary: 'remember: create, sign and store a memory',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(RememberBodySchema), required: true } },
  responses: { 201: { description: 'the new memory\'s view', content: json(MemoryViewResponseSchema) }, ...SIGNING_ERRORS }
})

const show = createRoute({
  method: 'get',
  path: '/v1/memories/{id}',
  summary: 'show: a memory with its witnesses, anchors, lineage and trust',
  request: { params: MemoryIdParamsSchema },
  responses: { 200: { description: 'the memory view', content: json(MemoryViewResponseSchema) }, ...BASE_ERRORS, 400: ERRORS[400], 404: ERRORS[404] }
})

const explain = createRoute({
  method: 'get',
  path: '/v1/memories/{id}/trust',
  summary: 'trust explain: every factor of the score, what counted and what was refused and why',
  request: { params: MemoryIdParamsSchema },
  responses: { 200: { description: 'the trust result', content: json(TrustResultResponseSchema) }, ...BASE_ERRORS, 400: ERRORS[400], 404: ERRORS[404] }
})

const query = createRoute({
  method: 'get',
  path: '/v1/memories',
  summary: 'query: memories by tags, minimum trust, type, author and time; most trusted and newest first',
  request: { query: QueryParamsSchema },
  responses: { 200: { description: 'one page of results', content: json(QueryPageSchema) }, ...BASE_ERRORS, 400: ERRORS[400] }
})

const attest = createRoute({
  method: 'post',
  path: '/v1/memories/{id}/attestations',
  summary: 'attest: a local agent confirms, disputes or partially confirms a stored memory',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { params: MemoryIdParamsSchema, body: { content: json(AttestBodySchema), required: true } },
  responses: { 201: { description: 'the attestation\'s id and the memory\'s new view', content: json(AttestResultSchema) }, ...SIGNING_ERRORS }
})

export function registerMemoryRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(remember, async (c) => {
    const { as, passphrase, ...input } = c.req.valid('json')
    const view = await withSigner(node, { as, passphrase }, async (signer) => await node.remember(input, signer))
    return c.json(view, 201)
  })

  app.openapi(show, async (c) => c.json(await node.show(c.req.valid('param').id), 200))

  app.openapi(explain, async (c) => c.json(await node.explainTrust(c.req.valid('param').id), 200))

  app.openapi(query, async (c) => {
    const { tag, ...rest } = c.req.valid('query')
    const page = await node.query({ ...rest, ...(tag === undefined ? {} : { tags: Array.isArray(tag) ? tag : [tag] }) })
    return c.json(page, 200)
  })

  app.openapi(attest, async (c) => {
    const { as, passphrase, ...input } = c.req.valid('json')
    const memory = c.req.valid('param').id
    const result = await withSigner(node, { as, passphrase }, async (signer) => await node.attest({ memory, ...input }, signer))
    return c.json({ attestation: result.id, memory: result.view }, 201)
  })
}
