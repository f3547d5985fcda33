import { z } from 'zod'
import { followTag } from '../../schema/index.js'
import { FOLLOW_ACTIONS, FollowsSchema, type FollowInput } from '../follow-shapes.js'
import { followLines } from './command-text.js'
import { didField } from './fields.js'
import { defineOperation } from './spec.js'

/* Interests (protocols/gossip-v1.md §11.4): what the node follows besides its own agents. */

const FollowInputSchema = z.strictObject({
  action: z.enum(FOLLOW_ACTIONS).describe('`add` or `remove` one follow (give `did` or `tag`), or `list` them (give neither)'),
  did: didField('an author to follow or stop following (did:key)').optional(),
  tag: followTag.describe('a tag to follow or stop following (record-v1 R3: up to 64 bytes, no whitespace)').optional()
}).refine((input) => input.action === 'list'
  ? input.did === undefined && input.tag === undefined
  : (input.did === undefined) !== (input.tag === undefined), {
  message: '`add` and `remove` take exactly one of `did` and `tag`; `list` takes neither'
})

export const follow = defineOperation({
  name: 'follow',
  summary: 'Follow an author (its shard is gossiped to this node) or a tag (its memories arrive on the tag\'s gossip topic once the network has shards, and by sync from peers, which serve what matches the node\'s follows and shards), stop following one, or list the follows; returns the follows after the change.',
  input: FollowInputSchema,
  output: FollowsSchema,
  errors: ['SCHEMA_INVALID', 'DID_INVALID', 'ALREADY_EXISTS', 'NOT_FOUND', 'USAGE'],
  http: {
    method: 'post',
    path: '/v1/follows',
    in: 'body',
    description: 'One route for the three actions: `{"action": "list"}` lists, `{"action": "add", "did": …}` or `{"action": "remove", "tag": …}` changes. A running daemon changes its gossip subscriptions at once and reports them under `gossip`.'
  },
  cli: { command: 'follow', args: ['action', 'did'], render: followLines },
  mcp: { tool: 'follow', title: 'Follow authors and tags' },
  run: async (node, input) => await node.follow(input as FollowInput)
})
