import { createRoute } from '@hono/zod-openapi'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { WitnessRequestBodySchema } from '../schemas/requests.js'
import { InboxSchema, PeersSchema, WitnessRequestResultSchema } from '../schemas/network.js'
import { BASE_ERRORS, SIGNING_ERRORS, json, limitBody, withSigner, type ApiApp } from './common.js'

const requestWitnesses = createRoute({
  method: 'post',
  path: '/v1/witness-requests',
  summary: 'witness request: ask peers (or the addressed agents) to witness a stored memory',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(WitnessRequestBodySchema), required: true } },
  responses: { 201: { description: 'the signed, published request', content: json(WitnessRequestResultSchema) }, ...SIGNING_ERRORS }
})

const inbox = createRoute({
  method: 'get',
  path: '/v1/inbox',
  summary: 'inbox: witness requests addressed to this node\'s agents (or open), not yet answered',
  responses: { 200: { description: 'the waiting requests', content: json(InboxSchema) }, ...BASE_ERRORS }
})

const peers = createRoute({
  method: 'get',
  path: '/v1/peers',
  summary: 'peers: the peers this node is connected to',
  responses: { 200: { description: 'the connected peers', content: json(PeersSchema) }, ...BASE_ERRORS }
})

export function registerNetworkRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(requestWitnesses, async (c) => {
    const { as, passphrase, memory, to, expiresAt } = c.req.valid('json')
    const input = { memory, ...(to === undefined ? {} : { to }), ...(expiresAt === undefined ? {} : { expiresAt }) }
    const result = await withSigner(node, { as, passphrase }, async (signer) => await node.requestWitnesses(input, signer))
    return c.json(result, 201)
  })

  app.openapi(inbox, async (c) => c.json({ items: await node.inbox() }, 200))

  app.openapi(peers, async (c) => c.json({ peers: await node.peers() }, 200))
}
