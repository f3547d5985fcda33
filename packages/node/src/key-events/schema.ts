import { z } from 'zod'
import { boundedText, didKey, instantOrder, isoTimestamp, recordCid, signatureBase64 } from '../schema/index.js'
import { MAX_KEY_LOG_EVENTS, MAX_REASON_BYTES } from './constants.js'

/*
 * Key events (record-v1 §13): the signed history of one agent identity's keys. An
 * identity is the did:key of its first key (the inception key); every later event names the event
 * before it, so one identity's events form a single chain, its key log.
 */

export const KEY_EVENT_TYPES = ['inception', 'rotation', 'delegation', 'revocation'] as const
export type KeyEventType = (typeof KEY_EVENT_TYPES)[number]

/** record-v1 K6: SHA-256 of the 32 raw public key bytes of the committed next key. */
export const keyDigest = z.string().regex(/^sha2-256:[0-9a-f]{64}$/, 'must be sha2-256:<64 lower-case hex digits>')

const common = {
  kind: z.literal('key_event'),
  version: z.literal(1),
  identity: didKey,
  /** Position in the identity's key log: 0 for the inception (record-v1 K4). */
  sequence: z.number().int().min(0).max(MAX_KEY_LOG_EVENTS - 1),
  created_at: isoTimestamp
}

/** record-v1 K4: the first event, signed by the identity's own key; commits to the next key. */
export const InceptionEventSchema = z.strictObject({
  ...common,
  type: z.literal('inception'),
  next_key_digest: keyDigest
}).refine((e) => e.sequence === 0, { message: 'an inception is event 0', path: ['sequence'] })

/** Every event after the inception: its type, and the event before it, so the key log is one chain. */
function laterEvent<T extends Exclude<KeyEventType, 'inception'>> (type: T) {
  return { ...common, type: z.literal(type), previous: recordCid }
}

/**
 * record-v1 K6: signed by the current key, co-signed by `new_key`, whose digest the previous
 * commitment named; commits to the key after it. `compromised_since`: the retired key is not to be
 * trusted for anything dated from then on (a rotation forced by a leak).
 */
export const RotationEventSchema = z.strictObject({
  ...laterEvent('rotation'),
  new_key: didKey,
  next_key_digest: keyDigest,
  compromised_since: isoTimestamp.optional()
}).refine(...instantOrder('compromised_since', 'not after', 'created_at'))

/** record-v1 K8: a device sub-key acting for the identity, signed by the current key, co-signed by the delegate. */
export const DelegationEventSchema = z.strictObject({
  ...laterEvent('delegation'),
  delegate: didKey,
  expires_at: isoTimestamp.optional()
}).refine(...instantOrder('expires_at', 'after', 'created_at'))

/**
 * record-v1 K9: `key` (a key of the identity, current or former, or a delegate) is revoked from
 * `effective_at`; with `compromised_since`, from that earlier instant instead.
 */
export const RevocationEventSchema = z.strictObject({
  ...laterEvent('revocation'),
  key: didKey,
  effective_at: isoTimestamp,
  compromised_since: isoTimestamp.optional(),
  reason: boundedText(MAX_REASON_BYTES).optional()
  // What was signed before a revocation stays valid unless the key is declared compromised.
}).refine(...instantOrder('effective_at', 'not before', 'created_at', 'effective_at must not be before created_at; use compromised_since for an earlier instant'))
  .refine(...instantOrder('compromised_since', 'not after', 'effective_at'))

export const KeyEventSchema = z.discriminatedUnion('type', [
  InceptionEventSchema, RotationEventSchema, DelegationEventSchema, RevocationEventSchema
])

export type InceptionEvent = z.infer<typeof InceptionEventSchema>
export type RotationEvent = z.infer<typeof RotationEventSchema>
export type DelegationEvent = z.infer<typeof DelegationEventSchema>
export type RevocationEvent = z.infer<typeof RevocationEventSchema>
export type KeyEvent = z.infer<typeof KeyEventSchema>

/**
 * record-v1 K3, K5: a key event with the signature of the identity's current key and, for a
 * rotation or a delegation, the co-signature of the key it introduces (proof that its holder agrees).
 */
export const SignedKeyEventSchema = z.strictObject({
  record: KeyEventSchema,
  signature: signatureBase64,
  co_signature: signatureBase64.optional()
}).refine((s) => (s.co_signature !== undefined) === (s.record.type === 'rotation' || s.record.type === 'delegation'), {
  message: 'a rotation or delegation carries a co_signature, other events none', path: ['co_signature']
})

export interface SignedKeyEvent {
  record: KeyEvent
  signature: string
  co_signature?: string
}

/** record-v1 K2: a key log as gossiped (gossip-v1 §9) and kept: its events in sequence order. */
export const KeyLogSchema = z.strictObject({
  events: z.array(SignedKeyEventSchema).min(1).max(MAX_KEY_LOG_EVENTS)
})

export interface KeyLog {
  events: SignedKeyEvent[]
}
