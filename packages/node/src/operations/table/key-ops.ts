import { z } from 'zod'
import { KEY_EVENT_TYPES, MAX_REASON_BYTES } from '../../key-events/index.js'
import { MAX_LABEL_BYTES } from '../../keystore/index.js'
import { boundedText, didKey, recordCid } from '../../schema/index.js'
import { KeyInfoSchema, NodeStatusSchema } from '../response-shapes.js'
import { didField, NoInput, signerFields, timeField } from './fields.js'
import type { KeyEventResult } from '../../key-events/index.js'
import type { Signer } from '../node-operations.js'
import { keyEventLines, keyLine, keyLines } from './command-text.js'
import { defineOperation, type CliBinding, type OperationNode, type OperationSpec } from './spec.js'

/* The node and its agent keys: status, `isnad id …`, and the key lifecycle (record-v1 §13). */

const KEY_ADMIN = 'agent keys and their lifecycle are the operator\'s (`isnad id …`), never the model\'s'

export const status = defineOperation({
  name: 'status',
  summary: 'The node home, its agents (did:key, label, which is the default), how many records of each kind it holds, and the network when a daemon runs.',
  input: NoInput,
  output: NodeStatusSchema,
  errors: [],
  readOnly: true,
  http: { method: 'get', path: '/v1/status', in: 'none' },
  cli: { command: 'status' },
  mcp: { tool: 'status', title: 'Node status' },
  run: async (node) => await node.status()
})

export const listKeys = defineOperation({
  name: 'listKeys',
  summary: 'The agent keys of this home, oldest first (never their secrets).',
  input: NoInput,
  output: z.array(KeyInfoSchema),
  errors: [],
  readOnly: true,
  opens: 'keys',
  http: { method: 'get', path: '/v1/ids', in: 'none' },
  cli: { command: 'id list', render: (keys) => keys.length === 0 ? 'no keys; run `isnad init`' : keys.map(keyLine).join('\n') },
  mcp: { excluded: KEY_ADMIN },
  run: async (node) => await node.listKeys()
})

export const keyInfo = defineOperation({
  name: 'keyInfo',
  summary: 'One agent key of this home (never its secret).',
  input: z.strictObject({ did: didField('the key\'s did:key') }),
  output: KeyInfoSchema,
  errors: ['DID_INVALID', 'UNKNOWN_KEY'],
  readOnly: true,
  opens: 'keys',
  http: { method: 'get', path: '/v1/ids/{did}', in: 'none' },
  cli: { command: 'id show', args: ['did'], fields: { did: { defaultKey: true, description: 'the did:key to show (default: the default key)' } }, render: keyLines },
  mcp: { excluded: KEY_ADMIN },
  run: async (node, { did }) => await node.keyInfo(did)
})

export const createKey = defineOperation({
  name: 'createKey',
  summary: 'Create an agent key, optionally passphrase-encrypted and made the default.',
  input: z.strictObject({
    label: boundedText(MAX_LABEL_BYTES).describe('a name for people').optional(),
    default: z.boolean().describe('make it the default signing key; default false').optional(),
    passphrase: signerFields.passphrase.describe('encrypt the new key with this passphrase')
  }),
  output: KeyInfoSchema,
  errors: ['SCHEMA_INVALID', 'FIELD_TOO_LARGE'],
  opens: 'keys',
  http: { method: 'post', path: '/v1/ids', status: 201, in: 'body', optionalBody: true, description: 'No body: a plain, non-default key.' },
  cli: {
    command: 'id new',
    fields: { passphrase: { passphraseFlag: 'encrypt', description: 'encrypt it with the passphrase from --passphrase-file or $ISNAD_PASSPHRASE' } },
    quiet: 'did',
    render: keyLine
  },
  mcp: { excluded: KEY_ADMIN },
  run: async (node, input) => await node.createKey(input)
})

export const KeyEventResultSchema = z.object({
  identity: didKey,
  event: recordCid,
  type: z.enum(KEY_EVENT_TYPES),
  key: didKey,
  current_key: didKey.nullable(),
  events: z.number().int().min(1),
  incepted: z.boolean()
})

const KEY_EVENT_ERRORS = [
  'SCHEMA_INVALID', 'FIELD_TOO_LARGE', 'UNKNOWN_KEY', 'PASSPHRASE_REQUIRED', 'PASSPHRASE_WRONG', 'KEY_ROTATED', 'KEY_REVOKED',
  'KEY_INACTIVE', 'KEY_EVENT_INVALID', 'KEY_EVENT_CONFLICT'
] as const
const signerWithUnlock = {
  as: signerFields.as.describe('did:key of the identity\'s current key, which signs; absent: the default key'),
  passphrase: signerFields.passphrase.describe('unlocks the signing key and the keys the event loads or creates')
}

export const rotateKey = keyEventOperation('rotate', {
  summary: 'Rotate the signer\'s identity to the key its log committed to (record-v1 K6), committing to a new one.',
  cli: { fields: { compromisedSince: { value: 'time' }, as: { value: 'did' } } },
  fields: {
    compromisedSince: timeField('the retired key is not trusted for anything dated from then on').optional()
  },
  event: async (node, { as: _as, ...input }, signer) => await node.rotateKey(input, signer)
})

export const revokeKey = keyEventOperation('revoke', {
  summary: 'Revoke a key of the signer\'s identity from a time (or since its compromise).',
  cli: { args: ['key'], fields: { effectiveAt: { value: 'time' }, compromisedSince: { value: 'time' }, reason: { value: 'text' }, as: { value: 'did' } } },
  fields: {
    key: didField('the key to revoke; absent: the signing key, which closes the identity\'s log').optional(),
    effectiveAt: timeField('from when the key is revoked; default now').optional(),
    compromisedSince: timeField('the key is not trusted for anything dated from then on').optional(),
    reason: boundedText(MAX_REASON_BYTES).describe(`why, for people (at most ${MAX_REASON_BYTES} UTF-8 bytes, no line breaks)`).optional()
  },
  event: async (node, { as: _as, ...input }, signer) => await node.revokeKey(input, signer)
})

export const delegateKey = keyEventOperation('delegate', {
  summary: 'Delegate a device sub-key (an existing key of this home, or a new one) to the signer\'s identity.',
  cli: { args: ['key'], fields: { label: { value: 'label' }, expiresAt: { value: 'time' }, as: { value: 'did' } } },
  fields: {
    key: didField('an existing key of this home to delegate; absent: a new key').optional(),
    label: boundedText(MAX_LABEL_BYTES, { min: 1 }).describe('a name for the new key').optional(),
    expiresAt: timeField('when the delegation lapses').optional()
  },
  event: async (node, { as: _as, ...input }, signer) => await node.delegateKey(input, signer)
})

/**
 * The key events (`isnad id <verb>`, `POST /v1/ids/<verb>`) differ in their fields and the node method
 * they call only: each signs with the identity's current key, unlocking the keys it loads or creates,
 * answers a KeyEventResult, fails in the same ways, and is the operator's.
 */
function keyEventOperation<F extends z.ZodRawShape> (verb: 'rotate' | 'revoke' | 'delegate', spec: {
  summary: string
  fields: F
  /** The command's positional fields and its fields' command lines (the rest of its `cli`). */
  cli: Pick<CliBinding<z.ZodObject<F & typeof signerWithUnlock>>, 'args' | 'fields'>
  event: (node: OperationNode, input: z.output<z.ZodObject<F & typeof signerWithUnlock>>, signer: Signer) => Promise<KeyEventResult>
}): OperationSpec<z.ZodObject<F & typeof signerWithUnlock>, typeof KeyEventResultSchema> {
  return defineOperation({
    name: `${verb}Key`,
    summary: spec.summary,
    input: z.strictObject({ ...spec.fields, ...signerWithUnlock }),
    output: KeyEventResultSchema,
    errors: KEY_EVENT_ERRORS,
    signs: true,
    http: { method: 'post', path: `/v1/ids/${verb}`, status: 201, in: 'body' },
    cli: { command: `id ${verb}`, ...spec.cli, render: keyEventLines },
    mcp: { excluded: KEY_ADMIN },
    run: async (node, input, signer) => await spec.event(node, input, signer!)
  })
}
