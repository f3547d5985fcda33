import { IsnadError } from '../errors/index.js'
import { decodeDidKey } from '../identity/index.js'
import type { Keystore, LoadedKey } from '../keystore/index.js'
import { buildDelegation, buildInception, buildRevocation, buildRotation, type KeySigner } from './build.js'
import type { KeyLogState } from './key-chain.js'
import { keyDigestOf } from './codec.js'
import type { Keyring } from './keyring.js'
import type { KeyEventType } from './schema.js'

/*
 * The key lifecycle as an agent runs it (`isnad id rotate|revoke|delegate`): events built from the
 * keys in keys/, checked and kept by the keyring. The key a log commits to is an ordinary key file
 * whose public key is never shown until the rotation that reveals it; it is found again by its
 * digest, so no index of commitments is needed.
 */

export interface LifecycleContext {
  keyring: Keyring
  keystore: Keystore
  /** The node's clock as an ISO timestamp. */
  now: () => string
}

/** The outcome of one lifecycle operation (the CLI's --json shape). */
export interface KeyEventResult {
  identity: string
  /** The event written (a CID string) and its type. */
  event: string
  type: KeyEventType
  /** The key the event introduced, retired or revoked. */
  key: string
  /** The key that signs the identity's next event; null once it was revoked. */
  current_key: string | null
  /** The log's length after the event. */
  events: number
  /** True when the identity had no log and an inception was written first. */
  incepted: boolean
}

export interface RotateKeyInput {
  /** The retired key is not to be trusted from this instant on (a leak), rather than from the rotation. */
  compromisedSince?: string
  /** Unlocks the committed key and encrypts the key committed to next. */
  passphrase?: string
}

export interface RevokeKeyInput {
  /** The key to revoke: the identity's current or a former key, or one of its delegates. @default the signer's key */
  key?: string
  /** @default now */
  effectiveAt?: string
  compromisedSince?: string
  reason?: string
  passphrase?: string
}

export interface DelegateKeyInput {
  /** An existing key in keys/ to delegate; absent: a new key is created. */
  key?: string
  label?: string
  expiresAt?: string
  passphrase?: string
}

/**
 * Rotates `signer`'s identity to the key its log committed to (record-v1 K6), committing to a new
 * one. Without a log, an inception is written first (the protection of pre-rotation starts there).
 * The default key follows the rotation.
 */
export async function rotateKey (context: LifecycleContext, signer: KeySigner, input: RotateKeyInput = {}): Promise<KeyEventResult> {
  const { state, incepted } = await ensureLog(context, signer, input.passphrase)
  const current = assertCurrent(state, signer)
  const committed = await findCommittedKey(context, state, input.passphrase)
  try {
    const following = await createSecretKey(context, state.identity, input.passphrase)
    const event = buildRotation(state, {
      current, next: committed, following, createdAt: context.now(),
      ...(input.compromisedSince === undefined ? {} : { compromisedSince: input.compromisedSince })
    })
    const { state: after } = await context.keyring.accept({ events: [...state.events, event] })
    if (await context.keystore.defaultDid() === current.did) await context.keystore.setDefault(committed.did)
    return resultOf(after, incepted, committed.did)
  } finally {
    committed.secretKey.fill(0)
  }
}

/** Revokes a key of `signer`'s identity (record-v1 K9); revoking the current key closes the log. */
export async function revokeKey (context: LifecycleContext, signer: KeySigner, input: RevokeKeyInput = {}): Promise<KeyEventResult> {
  const { state, incepted } = await ensureLog(context, signer, input.passphrase)
  const current = assertCurrent(state, signer)
  const key = input.key ?? signer.did
  const createdAt = context.now()
  const event = buildRevocation(state, {
    current, key, createdAt,
    ...(input.effectiveAt === undefined ? {} : { effectiveAt: input.effectiveAt }),
    ...(input.compromisedSince === undefined ? {} : { compromisedSince: input.compromisedSince }),
    ...(input.reason === undefined ? {} : { reason: input.reason })
  })
  const { state: after } = await context.keyring.accept({ events: [...state.events, event] })
  return resultOf(after, incepted, key)
}

/** Delegates a device sub-key to `signer`'s identity (record-v1 K8): an existing key of keys/, or a new one. */
export async function delegateKey (context: LifecycleContext, signer: KeySigner, input: DelegateKeyInput = {}): Promise<KeyEventResult> {
  const { state, incepted } = await ensureLog(context, signer, input.passphrase)
  const current = assertCurrent(state, signer)
  const did = input.key ?? (await context.keystore.create({
    label: input.label ?? `device key of ${state.identity}`, makeDefault: false, ...(input.passphrase === undefined ? {} : { passphrase: input.passphrase })
  })).did
  const delegate = await context.keystore.load(did, input.passphrase)
  try {
    const event = buildDelegation(state, {
      current, delegate, createdAt: context.now(), ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt })
    })
    const { state: after } = await context.keyring.accept({ events: [...state.events, event] })
    return resultOf(after, incepted, did)
  } finally {
    delegate.secretKey.fill(0)
  }
}

/** The log of the signer's identity; an inception (committing to a new key) when there is none. */
async function ensureLog (context: LifecycleContext, signer: KeySigner, passphrase: string | undefined): Promise<{ state: KeyLogState, incepted: boolean }> {
  const identity = context.keyring.identityOf(signer.did)
  const known = context.keyring.stateOf(identity)
  if (known !== undefined) return { state: known, incepted: false }
  const next = await createSecretKey(context, signer.did, passphrase)
  const { state } = await context.keyring.accept({ events: [buildInception(signer, next, context.now())] })
  return { state, incepted: true }
}

function assertCurrent (state: KeyLogState, signer: KeySigner): KeySigner {
  if (state.currentKey === signer.did) return signer
  throw new IsnadError('KEY_REVOKED', state.currentKey === null
    ? `the keys of ${state.identity} were revoked: its log takes no more events`
    : `${signer.did} is not the current key of ${state.identity}; sign with ${state.currentKey}`, {
    details: { identity: state.identity, key: signer.did, current: state.currentKey }
  })
}

/** The key whose digest the log committed to, from keys/ (KEY_INVALID when this home lacks it). */
async function findCommittedKey (context: LifecycleContext, state: KeyLogState, passphrase: string | undefined): Promise<LoadedKey> {
  for (const key of await context.keystore.list()) {
    if (keyDigestOf(decodeDidKey(key.did)) === state.nextKeyDigest) return await context.keystore.load(key.did, passphrase)
  }
  throw new IsnadError('UNKNOWN_KEY', `the key ${state.identity}'s log committed to is not in this home's keys/`, {
    details: { identity: state.identity, next_key_digest: state.nextKeyDigest }
  })
}

/** A new key in keys/, to be committed to: only its digest is published until a rotation reveals it. */
async function createSecretKey (context: LifecycleContext, identity: string, passphrase: string | undefined): Promise<string> {
  const key = await context.keystore.create({ label: `next key of ${identity}`, makeDefault: false, ...(passphrase === undefined ? {} : { passphrase }) })
  return key.did
}

function resultOf (state: KeyLogState, incepted: boolean, key: string): KeyEventResult {
  const event = state.events[state.events.length - 1]
  return {
    identity: state.identity,
    event: state.ids[state.ids.length - 1] as string,
    type: event?.record.type ?? 'inception',
    key,
    current_key: state.currentKey,
    events: state.events.length,
    incepted
  }
}
