import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { CreateKeyBodySchema, DidParamsSchema } from '../schemas/requests.js'
import { KeyInfoSchema, NodeStatusSchema } from '../schemas/responses.js'
import { BASE_ERRORS, BODY_ERRORS, ERRORS, json, limitBody, type ApiApp } from './common.js'

const status = createRoute({
  method: 'get',
  path: '/v1/status',
  summary: 'status: the node home, its agents, and how many records it holds',
  responses: { 200: { description: 'the node\'s status', content: json(NodeStatusSchema) }, ...BASE_ERRORS }
})

const listKeys = createRoute({
  method: 'get',
  path: '/v1/ids',
  summary: 'id list: the agent keys of this home (never their secrets)',
  responses: { 200: { description: 'every key, oldest first', content: json(z.array(KeyInfoSchema)) }, ...BASE_ERRORS }
})

const showKey = createRoute({
  method: 'get',
  path: '/v1/ids/{did}',
  summary: 'id show: one agent key',
  request: { params: DidParamsSchema },
  responses: { 200: { description: 'the key', content: json(KeyInfoSchema) }, ...BASE_ERRORS, 400: ERRORS[400], 404: ERRORS[404] }
})

const createKey = createRoute({
  method: 'post',
  path: '/v1/ids',
  summary: 'id new: create an agent key, optionally encrypted and made the default',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  // Optional: `POST /v1/ids` with no body creates a plain, non-default key.
  request: { body: { content: json(CreateKeyBodySchema), required: false } },
  responses: { 201: { description: 'the new key', content: json(KeyInfoSchema) }, ...BODY_ERRORS }
})

export function registerKeyRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(status, async (c) => c.json(await node.status(), 200))

  app.openapi(listKeys, async (c) => c.json(await node.listKeys(), 200))

  app.openapi(showKey, async (c) => c.json(await node.keyInfo(c.req.valid('param').did), 200))

  app.openapi(createKey, async (c) => {
    const body = c.req.valid('json')
    const key = await node.createKey({
      ...(body.label === undefined ? {} : { label: body.label }),
      makeDefault: body.default === true,
      ...(body.passphrase === undefined ? {} : { passphrase: body.passphrase })
    })
    return c.json(key, 201)
  })
}
