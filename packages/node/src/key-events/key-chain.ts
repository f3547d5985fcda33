import { IsnadError } from '../errors/index.js'
import { decodeDidKey, type SignatureVerifier } from '../identity/index.js'
import { decodeSignature } from '../record/index.js'
import { MAX_CLOCK_SKEW_MS } from '../schema/index.js'
import { keyDigestOf, keyEventCidOf, keyEventSigningInput } from './codec.js'
import type { KeyEvent, SignedKeyEvent } from './schema.js'

/** Why a key stopped being valid (record-v1 K12). */
export type KeyEnd = 'rotation' | 'revocation' | 'expiry'

/** When one key may sign for its identity: records dated in [from, until) (ms since the epoch). */
export interface KeyInterval {
  did: string
  role: 'identity' | 'delegate'
  /** −Infinity for the inception key: what it signed before the log existed stays its own. */
  from: number
  /** Infinity while nothing ended it. */
  until: number
  end?: KeyEnd
  /** For a delegate: the identity key that signed its delegation, and when. */
  delegatedBy?: { key: string, at: number }
}

/** An identity's key log, checked (record-v1 K4–K11), and what it says about each key. */
export interface KeyLogState {
  identity: string
  events: readonly SignedKeyEvent[]
  /** Event ids (CID strings), in sequence order. */
  ids: readonly string[]
  /** The key that signs the next event; null once it was revoked (the log is closed, K10). */
  currentKey: string | null
  /** The commitment the next rotation must reveal (K6). */
  nextKeyDigest: string
  keys: ReadonlyMap<string, KeyInterval>
}

export interface KeyChainOptions {
  verifier: SignatureVerifier
  /** The verifier's clock (ms): an event dated more than MAX_CLOCK_SKEW_MS ahead is refused (K7). */
  now: number
}

/**
 * Checks `events` as the continuation of `state` (undefined: from the inception) and returns the
 * new state; `state` is not modified. Throws KEY_EVENT_INVALID naming the event at fault (or
 * TIMESTAMP_IN_FUTURE, which a relay is not to blame for), so all or nothing is applied.
 */
export function applyKeyEvents (state: KeyLogState | undefined, events: readonly SignedKeyEvent[], options: KeyChainOptions): KeyLogState {
  let next = state
  for (const event of events) next = applyKeyEvent(next, event, options)
  if (next === undefined) throw new IsnadError('KEY_EVENT_INVALID', 'a key log holds at least its inception')
  return next
}

function applyKeyEvent (state: KeyLogState | undefined, signed: SignedKeyEvent, options: KeyChainOptions): KeyLogState {
  const event = signed.record
  const cid = keyEventCidOf(event)
  const id = cid.toString()
  const fail = (message: string): never => {
    throw new IsnadError('KEY_EVENT_INVALID', `key event ${event.sequence} of ${event.identity} (${id}): ${message}`, {
      details: { identity: event.identity, sequence: event.sequence, id }
    })
  }
  const at = Date.parse(event.created_at)
  if (at > options.now + MAX_CLOCK_SKEW_MS) {
    throw new IsnadError('TIMESTAMP_IN_FUTURE', `key event ${id} is dated ${event.created_at}, more than 15 minutes ahead`, { details: { id } })
  }
  const sequence = state?.events.length ?? 0
  if (event.sequence !== sequence) fail(`expected sequence ${sequence}`) // K4
  if (state !== undefined) {
    if (event.identity !== state.identity) fail(`belongs to another identity than ${state.identity}`)
    if (event.type === 'inception' || event.previous !== state.ids[state.ids.length - 1]) fail('does not name the previous event') // K4
    if (at < Date.parse(lastOf(state.events).record.created_at)) fail('is dated before the previous event') // K7
    if (state.currentKey === null) fail('the identity\'s key was revoked: its log is closed') // K10
  } else if (event.type !== 'inception') {
    fail('a key log starts with an inception')
  }
  const signer = state?.currentKey ?? event.identity // K5
  const message = keyEventSigningInput(cid)
  if (!verifies(options.verifier, signed.signature, message, signer)) fail(`signature by ${signer} does not verify`)
  const keys = new Map(state?.keys ?? [])
  switch (event.type) {
    case 'inception':
      keys.set(event.identity, { did: event.identity, role: 'identity', from: -Infinity, until: Infinity })
      return { identity: event.identity, events: [signed], ids: [id], currentKey: event.identity, nextKeyDigest: event.next_key_digest, keys }
    case 'rotation': {
      const s = state as KeyLogState
      if (keys.has(event.new_key)) fail(`${event.new_key} was already a key of this identity`)
      if (keyDigestOf(publicKeyOf(event.new_key, fail)) !== s.nextKeyDigest) fail('new_key is not the key committed to') // K6
      if (!verifies(options.verifier, signed.co_signature, message, event.new_key)) fail(`co-signature by ${event.new_key} does not verify`)
      const compromised = event.compromised_since === undefined ? undefined : Date.parse(event.compromised_since)
      end(keys, signer, compromised ?? at, compromised === undefined ? 'rotation' : 'revocation')
      keys.set(event.new_key, { did: event.new_key, role: 'identity', from: at, until: Infinity })
      return extend(s, signed, id, keys, event.new_key, event.next_key_digest)
    }
    case 'delegation': {
      const s = state as KeyLogState
      if (keys.has(event.delegate)) fail(`${event.delegate} was already a key of this identity`) // K8
      if (!verifies(options.verifier, signed.co_signature, message, event.delegate)) fail(`co-signature by ${event.delegate} does not verify`)
      const until = event.expires_at === undefined ? Infinity : Date.parse(event.expires_at)
      keys.set(event.delegate, {
        did: event.delegate, role: 'delegate', from: at, until, ...(until === Infinity ? {} : { end: 'expiry' as const }), delegatedBy: { key: signer, at }
      })
      return extend(s, signed, id, keys, s.currentKey, s.nextKeyDigest)
    }
    case 'revocation': {
      const s = state as KeyLogState
      if (!keys.has(event.key)) fail(`${event.key} is not a key of this identity`) // K9
      const compromised = event.compromised_since === undefined ? undefined : Date.parse(event.compromised_since)
      end(keys, event.key, compromised ?? Date.parse(event.effective_at), 'revocation')
      return extend(s, signed, id, keys, event.key === s.currentKey ? null : s.currentKey, s.nextKeyDigest)
    }
  }
}

/**
 * Ends `did`'s validity at `until` unless it ended earlier (a revocation never extends a key). A
 * compromised identity key also voids the delegations it signed from then on (record-v1 K11): the
 * thief could have made them.
 */
function end (keys: Map<string, KeyInterval>, did: string, until: number, why: KeyEnd): void {
  const key = keys.get(did) as KeyInterval
  if (until < key.until) keys.set(did, { ...key, until, end: why })
  if (why !== 'revocation') return
  for (const delegate of keys.values()) {
    if (delegate.delegatedBy?.key === did && delegate.delegatedBy.at >= until && delegate.until > delegate.from) {
      keys.set(delegate.did, { ...delegate, until: delegate.from, end: 'revocation' })
    }
  }
}

function extend (state: KeyLogState, signed: SignedKeyEvent, id: string, keys: Map<string, KeyInterval>, currentKey: string | null, nextKeyDigest: string): KeyLogState {
  return { identity: state.identity, events: [...state.events, signed], ids: [...state.ids, id], currentKey, nextKeyDigest, keys }
}

function verifies (verifier: SignatureVerifier, signature: string | undefined, message: Uint8Array, did: string): boolean {
  if (signature === undefined) return false
  try {
    return verifier.verify(decodeSignature(signature), message, decodeDidKey(did))
  } catch (err) {
    if (err instanceof IsnadError) return false // a malformed signature or key is a failed signature here
    throw err
  }
}

function publicKeyOf (did: string, fail: (message: string) => never): Uint8Array {
  try {
    return decodeDidKey(did)
  } catch {
    return fail(`${did} is not a valid Ed25519 did:key`)
  }
}

function lastOf<T> (items: readonly T[]): T {
  return items[items.length - 1] as T
}

export type { KeyEvent }
