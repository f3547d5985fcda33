import { z } from 'zod'
import { AgentReputationSchema, agentLines, rootLines, TrustRootSchema, type TrustRoot } from '../../reputation/index.js'
import { didKey, MAX_REQUEST_WITNESSES } from '../../schema/index.js'
import { GossipHealthSchema, OFFLINE_HEALTH, isGossipHealthSource } from '../../net/gossip/gossip-health.js'
import {
  ConnectedPeerSchema, ConnectPeerBodySchema, DisconnectedPeerSchema, DisconnectPeerBodySchema, NetworkStatsSchema, PeerSyncsSchema,
  SyncPeersBodySchema
} from '../peer-control.js'
import { InboxSchema, PeersSchema, WitnessRequestResultSchema, type InboxItem, type PeerInfo } from '../network-shapes.js'
import { KeyInfoSchema } from '../response-shapes.js'
import { witnessRequestLines } from './command-text.js'
import { cidField, didField, MEMORY_ARGUMENT, NoInput, OLD_NAME_MEMORY, signerFields, timeField } from './fields.js'
import { defineOperation, peerControlOf } from './spec.js'

/* Trust roots and reputation (docs/trust.md §2, §3); witness requests, the inbox and the network (gossip-v1). */

const POLICY = 'whom the node trusts is the operator\'s policy (`isnad trust root …`), never the model\'s'
const OPERATOR = 'the node\'s connections are the operator\'s (`isnad peers …`)'
/** The operations on one agent, named by its did:key. */
const AgentInput = z.strictObject({ did: didField('the agent\'s did:key') })
const RootsSchema = z.strictObject({ roots: z.array(TrustRootSchema) })
const renderRoots = ({ roots }: { roots: TrustRoot[] }): string => rootLines(roots).join('\n')

export const listTrustRoots = defineOperation({
  name: 'listTrustRoots',
  summary: 'The operator\'s trust roots, oldest first: the agents reputation flows from.',
  input: NoInput,
  output: RootsSchema,
  errors: [],
  readOnly: true,
  http: { method: 'get', path: '/v1/trust/roots', in: 'none' },
  cli: { command: 'trust root list', render: renderRoots },
  mcp: { tool: 'list_trust_roots', title: 'Trust roots' },
  run: async (node) => ({ roots: await node.listTrustRoots() })
})

export const addTrustRoot = defineOperation({
  name: 'addTrustRoot',
  summary: 'Make an agent a trust root; returns the roots after the change (ALREADY_EXISTS when it is one).',
  input: AgentInput,
  output: RootsSchema,
  errors: ['DID_INVALID', 'ALREADY_EXISTS'],
  http: { method: 'post', path: '/v1/trust/roots', status: 201, in: 'body' },
  cli: { command: 'trust root add', args: ['did'], render: renderRoots },
  mcp: { excluded: POLICY },
  run: async (node, { did }) => ({ roots: await node.addTrustRoot(did) })
})

export const removeTrustRoot = defineOperation({
  name: 'removeTrustRoot',
  summary: 'Stop trusting an agent as a root; returns the roots after the change (NOT_FOUND when it is not one).',
  input: AgentInput,
  output: RootsSchema,
  errors: ['DID_INVALID', 'NOT_FOUND'],
  http: { method: 'post', path: '/v1/trust/roots/remove', in: 'body' },
  cli: { command: 'trust root remove', args: ['did'], render: renderRoots },
  mcp: { excluded: POLICY },
  run: async (node, { did }) => ({ roots: await node.removeTrustRoot(did) })
})

export const reputation = defineOperation({
  name: 'reputation',
  summary: 'An agent\'s reputation from this node\'s trust roots: its score, rank and path from a root.',
  input: AgentInput,
  output: AgentReputationSchema,
  errors: ['DID_INVALID'],
  readOnly: true,
  http: { method: 'get', path: '/v1/reputation/{did}', in: 'none' },
  cli: { command: 'trust reputation', args: ['did'], render: (rep) => agentLines(rep).join('\n') },
  mcp: { tool: 'get_reputation', title: 'Reputation' },
  run: async (node, { did }) => await node.reputation(did)
})

const AgentSchema = z.strictObject({
  did: didKey,
  key: KeyInfoSchema.pick({ label: true, created_at: true, default: true, encrypted: true }).nullable()
    .describe('its key in this home, when it is one of this node\'s own agents (never the secret or the key file); null otherwise'),
  root: TrustRootSchema.nullable().describe('its entry among the trust roots, when it is one; null otherwise'),
  reputation: AgentReputationSchema
})

export const agent = defineOperation({
  name: 'agent',
  summary: 'What this node knows of one agent, in one answer: whether it is one of this home\'s own agents (its key\'s label, default, encrypted), whether it is a trust root and why, and its reputation with its path from a root.',
  input: AgentInput,
  output: AgentSchema,
  errors: ['DID_INVALID'],
  readOnly: true,
  http: { method: 'get', path: '/v1/agents/{did}', in: 'none' },
  cli: {
    command: 'agent',
    args: ['did'],
    render: ({ did, key, root, reputation }) => [
      `agent ${did}`,
      `  own agent  ${key === null ? 'no' : `yes${key.label === undefined ? '' : ` "${key.label}"`}${key.default ? ', the default key' : ''}${key.encrypted ? ', encrypted' : ''}, since ${key.created_at}`}`,
      `  trust root ${root === null ? 'no' : root.source === 'own-agent' ? 'yes, an own agent of this node' : `yes, added ${root.added_at ?? ''}`.trimEnd()}`,
      ...agentLines(reputation).map((line) => `  ${line}`)
    ].join('\n')
  },
  mcp: { tool: 'about_agent', title: 'About an agent' },
  run: async (node, { did }) => {
    const [keys, roots, reputation] = await Promise.all([node.listKeys(), node.listTrustRoots(), node.reputation(did)])
    const own = keys.find((k) => k.did === did)
    return {
      did,
      key: own === undefined ? null : { ...(own.label === undefined ? {} : { label: own.label }), created_at: own.created_at, default: own.default, encrypted: own.encrypted },
      root: roots.find((r) => r.did === did) ?? null,
      reputation
    }
  }
})

export const requestWitnesses = defineOperation({
  name: 'requestWitnesses',
  summary: 'Sign and publish a witness request for a stored memory: addressed to `to`, or open to any peer. Answers arrive as attestations.',
  input: z.strictObject({
    id: cidField(`the id of the stored memory to have witnessed${OLD_NAME_MEMORY}`),
    to: z.array(didField('a witness')).min(1).max(MAX_REQUEST_WITNESSES)
      .refine((to) => new Set(to).size === to.length, { message: 'witnesses must be unique' })
      .describe(`the agents asked (did:key, unique, at most ${MAX_REQUEST_WITNESSES}); absent: an open request any node may answer`).optional(),
    expiresAt: timeField('when the request lapses').optional(),
    ...signerFields
  }),
  output: WitnessRequestResultSchema,
  errors: ['SCHEMA_INVALID', 'CID_INVALID', 'NOT_FOUND', 'UNKNOWN_KEY', 'PASSPHRASE_REQUIRED', 'PASSPHRASE_WRONG'],
  signs: true,
  aliases: { memory: 'id' },
  http: { method: 'post', path: '/v1/witness-requests', status: 201, in: 'body' },
  cli: {
    command: 'witness request',
    args: ['id'],
    fields: { id: MEMORY_ARGUMENT, to: { value: 'did' }, expiresAt: { flag: 'expires', value: 'time' }, as: { value: 'did' } },
    quiet: 'id',
    render: witnessRequestLines
  },
  mcp: { tool: 'request_witnesses', title: 'Request witnesses' },
  run: async (node, { id, to, expiresAt }, signer) => await node.requestWitnesses({
    memory: id, ...(to === undefined ? {} : { to }), ...(expiresAt === undefined ? {} : { expiresAt })
  }, signer!)
})

export const inbox = defineOperation({
  name: 'inbox',
  summary: 'Witness requests waiting for this node\'s agents (addressed to them, or open), not yet answered. The summaries are other agents\' claims.',
  input: NoInput,
  output: InboxSchema,
  errors: [],
  readOnly: true,
  http: { method: 'get', path: '/v1/inbox', in: 'none' },
  cli: { command: 'inbox', render: ({ items }) => items.length === 0 ? 'inbox empty' : items.map(renderInboxItem).join('\n') },
  mcp: { tool: 'inbox', title: 'Inbox', claims: true },
  run: async (node) => ({ items: await node.inbox() })
})

export const peers = defineOperation({
  name: 'peers',
  summary: 'The peers this node is connected to, with their addresses. Needs a running node (`isnad start`): USAGE without one.',
  input: NoInput,
  output: PeersSchema,
  errors: ['USAGE'],
  readOnly: true,
  http: { method: 'get', path: '/v1/peers', in: 'none' },
  cli: { command: 'peers', render: ({ peers }) => peers.length === 0 ? 'no peers connected' : peers.map(renderPeer).join('\n') },
  mcp: { tool: 'peers', title: 'Peers' },
  run: async (node) => ({ peers: await node.peers() })
})

export const connectPeer = defineOperation({
  name: 'connectPeer',
  summary: 'Dial a peer by its multiaddr (ending in /p2p/<peer id>). Needs a running node.',
  input: z.strictObject({ address: ConnectPeerBodySchema.shape.address.describe('a multiaddr ending in /p2p/<peer id>, e.g. /ip4/10.0.0.5/tcp/4501/p2p/12D3KooW…') }),
  output: ConnectedPeerSchema,
  errors: ['SCHEMA_INVALID', 'USAGE', 'ADDRESS_REFUSED', 'PEER_UNREACHABLE'],
  http: { method: 'post', path: '/v1/peers/connect', in: 'body' },
  cli: { command: 'peers connect', args: ['address'], render: ({ peer }) => `connected to ${peer}` },
  mcp: { excluded: OPERATOR },
  run: async (node, { address }) => ({ peer: await peerControlOf(node, 'controlling peers').connectPeer(address) })
})

export const disconnectPeer = defineOperation({
  name: 'disconnectPeer',
  summary: 'Close every connection to a peer (it may dial again). Needs a running node.',
  input: z.strictObject({ peer: DisconnectPeerBodySchema.shape.peer.describe('the libp2p peer id (base58btc)') }),
  output: DisconnectedPeerSchema,
  errors: ['SCHEMA_INVALID', 'USAGE'],
  http: { method: 'post', path: '/v1/peers/disconnect', in: 'body' },
  cli: { command: 'peers disconnect', args: ['peer'], fields: { peer: { value: 'peer-id' } }, render: ({ peer, closed }) => closed === 0 ? `not connected to ${peer}` : `closed ${closed} connection(s) to ${peer}` },
  mcp: { excluded: OPERATOR },
  run: async (node, { peer }) => ({ peer, closed: await peerControlOf(node, 'controlling peers').disconnectPeer(peer) })
})

export const syncPeers = defineOperation({
  name: 'syncPeers',
  summary: 'Catch up with one connected peer, or all of them, by sync-v1; one entry per peer. Needs a running node.',
  input: z.strictObject({ peer: SyncPeersBodySchema.shape.peer.describe('one connected peer\'s id; absent: every connected peer') }),
  output: PeerSyncsSchema,
  errors: ['SCHEMA_INVALID', 'USAGE'],
  http: { method: 'post', path: '/v1/peers/sync', in: 'body', optionalBody: true },
  cli: {
    command: 'peers sync',
    args: ['peer'],
    fields: { peer: { value: 'peer-id' } },
    render: ({ syncs }) => syncs.length === 0
      ? 'no peers connected'
      : syncs.map((s) => s.error === undefined ? `${s.peer}  ${s.received ?? 0} received, ${s.accepted ?? 0} new` : `${s.peer}  failed: ${s.error}`).join('\n')
  },
  mcp: { excluded: OPERATOR },
  run: async (node, { peer }) => ({ syncs: await peerControlOf(node, 'controlling peers').syncPeers(peer) })
})

export const networkStats = defineOperation({
  name: 'networkStats',
  summary: 'Gossip, verification and sync counters since the node started, peers, CPU. Needs a running node.',
  input: NoInput,
  output: NetworkStatsSchema,
  errors: ['USAGE'],
  readOnly: true,
  http: { method: 'get', path: '/v1/network/stats', in: 'none' },
  cli: {
    command: 'peers stats',
    render: (stats) => [
      `peers          ${stats.peers}`,
      `gossip         ${stats.gossip.accepted} accepted, ${stats.gossip.ignored} ignored, ${stats.gossip.rejected} rejected`,
      `records        ${stats.accepted.gossip} by gossip, ${stats.accepted.fetch} by fetch, ${stats.accepted.sync} by sync`,
      `verifications  ${stats.verifications}`,
      `violations     ${stats.violations}`,
      `cpu            ${stats.cpu_ms} ms`
    ].join('\n')
  },
  mcp: { tool: 'network_stats', title: 'Network statistics' },
  run: async (node) => await peerControlOf(node, 'controlling peers').networkStats()
})

export const gossipHealth = defineOperation({
  name: 'gossipHealth',
  summary: 'Connected peers with their gossipsub scores and penalties, and each topic\'s mesh size; `running: false` without the network.',
  input: NoInput,
  output: GossipHealthSchema,
  errors: [],
  readOnly: true,
  http: { method: 'get', path: '/v1/network/health', in: 'none' },
  cli: {
    command: 'peers health',
    render: (health) => health.running
      ? [
          ...health.peers.map((p) => `${p.id}  score ${p.score.toFixed(2)}  penalty ${p.penalty.toFixed(2)}`),
          ...health.topics.map((t) => `${t.topic}  mesh ${t.mesh_peers}`)
        ].join('\n') || 'no peers, no topics'
      : 'the network is not running here (`isnad start`)'
  },
  mcp: { tool: 'network_health', title: 'Gossip health' },
  run: async (node) => isGossipHealthSource(node) ? node.gossipHealth() : OFFLINE_HEALTH
})

function renderInboxItem (item: InboxItem): string {
  const memory = item.summary === undefined ? item.memory : `${item.memory}  [${item.type ?? '?'}] ${item.summary}`
  if (item.drawn === true) {
    // Nobody asked: the witness draw chose these agents (protocols/witness-draw-v1.md).
    return [
      `drawn   ${item.created_at}`,
      `  memory ${memory}`,
      `  author ${item.requester}`,
      `  to     ${item.to.join(', ')} (drawn witness)`
    ].join('\n')
  }
  return [
    `request ${item.request ?? ''}  ${item.created_at}${item.expires_at === undefined ? '' : `  (expires ${item.expires_at})`}`,
    `  memory ${memory}`,
    `  from   ${item.requester}`,
    `  to     ${item.to.length === 0 ? 'anyone (open request)' : item.to.join(', ')}`
  ].join('\n')
}

function renderPeer (peer: PeerInfo): string {
  return peer.addresses.length === 0 ? peer.id : `${peer.id}\n${peer.addresses.map((a) => `  ${a}`).join('\n')}`
}
