import { createRoute } from '@hono/zod-openapi'
import { z } from 'zod'
import { KEY_EVENT_TYPES, MAX_REASON_BYTES } from '../../keyring/index.js'
import { MAX_LABEL_BYTES } from '../../keys/index.js'
import { boundedText, didKey, isoTimestamp, recordCid } from '../../schema/index.js'
import { MAX_REQUEST_BYTES } from '../constants.js'
import type { NodeOperations } from '../operations.js'
import { SignerFieldsSchema } from '../schemas/requests.js'
import { SIGNING_ERRORS, ERRORS, json, limitBody, withSigner, type ApiApp } from './common.js'

/*
 * The key lifecycle over HTTP (record-v1 §13, `isnad id rotate|revoke|delegate`). Each route signs
 * with the identity's current key (`as`, default: the default key); `passphrase` unlocks it and
 * the other keys the operation loads or creates.
 */

export const RotateKeyBodySchema = SignerFieldsSchema.extend({
  compromisedSince: isoTimestamp.optional().meta({ description: 'the retired key is not trusted for anything dated from then on' })
})

export const RevokeKeyBodySchema = SignerFieldsSchema.extend({
  key: didKey.optional().meta({ description: 'the key to revoke; default: the signing key (which closes the identity\'s log)' }),
  effectiveAt: isoTimestamp.optional(),
  compromisedSince: isoTimestamp.optional(),
  reason: boundedText(MAX_REASON_BYTES).optional()
})

export const DelegateKeyBodySchema = SignerFieldsSchema.extend({
  key: didKey.optional().meta({ description: 'an existing key of this home to delegate; default: a new key' }),
  label: boundedText(MAX_LABEL_BYTES, { min: 1 }).optional(),
  expiresAt: isoTimestamp.optional()
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

const KEY_ERRORS = { ...SIGNING_ERRORS, 409: ERRORS[409] } as const
const created = { 201: { description: 'the key event written', content: json(KeyEventResultSchema) }, ...KEY_ERRORS }

const rotate = createRoute({
  method: 'post',
  path: '/v1/ids/rotate',
  summary: 'id rotate: rotate to the pre-committed key, committing to the next',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(RotateKeyBodySchema), required: false } },
  responses: created
})

const revoke = createRoute({
  method: 'post',
  path: '/v1/ids/revoke',
  summary: 'id revoke: revoke a key of the identity from a time',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(RevokeKeyBodySchema), required: false } },
  responses: created
})

const delegate = createRoute({
  method: 'post',
  path: '/v1/ids/delegate',
  summary: 'id delegate: delegate a device sub-key to the identity',
  middleware: [limitBody(MAX_REQUEST_BYTES)] as const,
  request: { body: { content: json(DelegateKeyBodySchema), required: false } },
  responses: created
})

/** The operation's own input: the body without the key's name, with the passphrase kept for the other keys. */
function inputOf<T extends { as?: string | undefined, passphrase?: string | undefined }> (body: T): Omit<T, 'as'> {
  const { as: _as, ...input } = body
  return input
}

export function registerKeyEventRoutes (app: ApiApp, node: NodeOperations): void {
  app.openapi(rotate, async (c) => {
    const body = c.req.valid('json')
    return c.json(await withSigner(node, body, async (signer) => await node.rotateKey(inputOf(body), signer)), 201)
  })
  app.openapi(revoke, async (c) => {
    const body = c.req.valid('json')
    return c.json(await withSigner(node, body, async (signer) => await node.revokeKey(inputOf(body), signer)), 201)
  })
  app.openapi(delegate, async (c) => {
    const body = c.req.valid('json')
    return c.json(await withSigner(node, body, async (signer) => await node.delegateKey(inputOf(body), signer)), 201)
  })
}
