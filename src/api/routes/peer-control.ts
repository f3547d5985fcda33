import { createRoute } from '@hono/zod-openapi'
import { IsnadError } from '../../errors/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import {
  ConnectedPeerSchema, ConnectPeerBodySchema, DisconnectedPeerSchema, DisconnectPeerBodySchema, isPeerControl, NetworkStatsSchema,
  PeerSyncsSchema, SyncPeersBodySchema, type PeerControl
} from '../peer-control.js'
import { BASE_ERRORS, BODY_ERRORS, ERRORS, json, limitBody, type ApiApp } from './common.js'

/* The operator's control over the node's connections (../peer-control.ts). */

const PEER_ERRORS = { ...BODY_ERRORS, 502: { description: 'PEER_UNREACHABLE', content: ERRORS[500].content } } as const

const connect = createRoute({
  method: 'post',
  path: '/v1/peers/connect',
  summary: 'peers connect: dial a peer by its multiaddr (ending in /p2p/<peer id>)',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(ConnectPeerBodySchema), required: true } },
  responses: { 200: { description: 'connected', content: json(ConnectedPeerSchema) }, ...PEER_ERRORS }
})

const disconnect = createRoute({
  method: 'post',
  path: '/v1/peers/disconnect',
  summary: 'peers disconnect: close every connection to a peer (it may dial again)',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(DisconnectPeerBodySchema), required: true } },
  responses: { 200: { description: 'the connections closed', content: json(DisconnectedPeerSchema) }, ...BODY_ERRORS }
})

const sync = createRoute({
  method: 'post',
  path: '/v1/peers/sync',
  summary: 'peers sync: catch up with one connected peer, or all of them, by sync-v1',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(SyncPeersBodySchema), required: true } },
  responses: { 200: { description: 'one entry per peer', content: json(PeerSyncsSchema) }, ...BODY_ERRORS }
})

const stats = createRoute({
  method: 'get',
  path: '/v1/network/stats',
  summary: 'network stats: gossip, verification and sync counters since the node started, peers, CPU',
  responses: { 200: { description: 'the counters', content: json(NetworkStatsSchema) }, ...BASE_ERRORS }
})

export function registerPeerControlRoutes (app: ApiApp, node: NodeOperations): void {
  const control = (): PeerControl => {
    if (isPeerControl(node)) return node
    throw new IsnadError('USAGE', 'controlling peers needs a running network node (`isnad start`)')
  }
  app.openapi(connect, async (c) => c.json({ peer: await control().connectPeer(c.req.valid('json').address) }, 200))
  app.openapi(disconnect, async (c) => {
    const { peer } = c.req.valid('json')
    return c.json({ peer, closed: await control().disconnectPeer(peer) }, 200)
  })
  app.openapi(sync, async (c) => c.json({ syncs: await control().syncPeers(c.req.valid('json').peer) }, 200))
  app.openapi(stats, async (c) => c.json(await control().networkStats(), 200))
}
