import { IsnadError } from '../errors/index.js'
import { decodeDidKey, encodeDidKey, publicKeyOfSeed, signBytes } from '../identity/index.js'
import { encodeSignature } from '../record/index.js'
import type { KeyLogState } from './key-chain.js'
import { keyDigestOf, keyEventCidOf, keyEventSigningInput, parseSignedKeyEvent } from './codec.js'
import type { KeyEvent, SignedKeyEvent } from './schema.js'

/** A key able to sign: its did:key and its 32-byte RFC 8032 seed (the node's Signer shape). */
export interface KeySigner {
  did: string
  secretKey: Uint8Array
}

/**
 * Signs `event` with `signer` (the identity's current key) and, for a rotation or delegation,
 * `coSigner` (the key it introduces); the result is schema-checked (record-v1 K1–K3) but not
 * checked against the log: applyKeyEvents does that.
 */
export function signKeyEvent (event: KeyEvent, signer: KeySigner, coSigner?: KeySigner): SignedKeyEvent {
  const message = keyEventSigningInput(keyEventCidOf(event))
  const signed: SignedKeyEvent = { record: event, signature: encodeSignature(signBytes(message, seedOf(signer))) }
  if (coSigner !== undefined) signed.co_signature = encodeSignature(signBytes(message, seedOf(coSigner)))
  return parseSignedKeyEvent(signed)
}

/** record-v1 K4: event 0 of `identity`'s log, committing to `nextKey` (a did:key). */
export function buildInception (identity: KeySigner, nextKey: string, createdAt: string): SignedKeyEvent {
  return signKeyEvent({
    kind: 'key_event', version: 1, type: 'inception', identity: identity.did, sequence: 0, created_at: createdAt,
    next_key_digest: keyDigestOf(decodeDidKey(nextKey))
  }, identity)
}

export interface RotationInput {
  /** The identity's current key. */
  current: KeySigner
  /** The key the log's commitment names. */
  next: KeySigner
  /** The key the new event commits to (a did:key; its seed stays secret until the next rotation). */
  following: string
  createdAt: string
  compromisedSince?: string
}

/** record-v1 K6. */
export function buildRotation (state: KeyLogState, input: RotationInput): SignedKeyEvent {
  return signKeyEvent({
    ...laterEvent(state, input.createdAt),
    type: 'rotation',
    new_key: input.next.did,
    next_key_digest: keyDigestOf(decodeDidKey(input.following)),
    ...(input.compromisedSince === undefined ? {} : { compromised_since: input.compromisedSince })
  }, input.current, input.next)
}

/** record-v1 K8. */
export function buildDelegation (state: KeyLogState, input: { current: KeySigner, delegate: KeySigner, createdAt: string, expiresAt?: string }): SignedKeyEvent {
  return signKeyEvent({
    ...laterEvent(state, input.createdAt),
    type: 'delegation',
    delegate: input.delegate.did,
    ...(input.expiresAt === undefined ? {} : { expires_at: input.expiresAt })
  }, input.current, input.delegate)
}

export interface RevocationInput {
  current: KeySigner
  key: string
  createdAt: string
  /** @default createdAt */
  effectiveAt?: string
  compromisedSince?: string
  reason?: string
}

/** record-v1 K9. */
export function buildRevocation (state: KeyLogState, input: RevocationInput): SignedKeyEvent {
  return signKeyEvent({
    ...laterEvent(state, input.createdAt),
    type: 'revocation',
    key: input.key,
    effective_at: input.effectiveAt ?? input.createdAt,
    ...(input.compromisedSince === undefined ? {} : { compromised_since: input.compromisedSince }),
    ...(input.reason === undefined ? {} : { reason: input.reason })
  }, input.current)
}

/** What every event after the inception carries: its place in `state`'s log and the id of the event before it (record-v1 §13). */
function laterEvent (state: KeyLogState, createdAt: string): { kind: 'key_event', version: 1, identity: string, sequence: number, created_at: string, previous: string } {
  return {
    kind: 'key_event', version: 1, identity: state.identity, sequence: state.events.length, created_at: createdAt,
    previous: state.ids[state.ids.length - 1] as string
  }
}

function seedOf (signer: KeySigner): Uint8Array {
  if (encodeDidKey(publicKeyOfSeed(signer.secretKey)) !== signer.did) {
    throw new IsnadError('KEY_INVALID', `the signing key given for ${signer.did} is another key`)
  }
  return signer.secretKey
}
