import { IsnadError, type ErrorCode } from '../errors/index.js'
import { keyEventIdOf } from './codec.js'
import { applyKeyEvents, type KeyChainOptions, type KeyInterval, type KeyLogState } from './key-chain.js'
import type { KeyLog, SignedKeyEvent } from './schema.js'

/** What a key log says about one key at one instant (record-v1 K12). */
export type KeyStatus =
  | { status: 'valid', identity: string, role: KeyInterval['role'] }
  | { status: 'refused', identity: string, role: KeyInterval['role'], code: Extract<ErrorCode, 'KEY_ROTATED' | 'KEY_REVOKED' | 'KEY_INACTIVE'> }

/**
 * The historical lookup of record-v1 K12: whether `did` could sign for its identity at `at` (a
 * record's own time). Undefined when the log does not name the key: it is then only itself.
 */
export function keyStatusAt (state: KeyLogState, did: string, at: number): KeyStatus | undefined {
  const key = state.keys.get(did)
  if (key === undefined) return undefined
  const { identity } = state
  if (at < key.from) return { status: 'refused', identity, role: key.role, code: 'KEY_INACTIVE' }
  if (at < key.until) return { status: 'valid', identity, role: key.role }
  const code = key.end === 'rotation' ? 'KEY_ROTATED' : key.end === 'expiry' ? 'KEY_INACTIVE' : 'KEY_REVOKED'
  return { status: 'refused', identity, role: key.role, code }
}

/** The error a refused status becomes; `what` names the record. */
export function keyStatusError (status: Extract<KeyStatus, { status: 'refused' }>, did: string, what: string, at: string): IsnadError {
  const reason = status.code === 'KEY_ROTATED' ? 'was rotated out' : status.code === 'KEY_REVOKED' ? 'was revoked' : 'was not valid'
  return new IsnadError(status.code, `${what} is signed by ${did}, which ${reason} for ${status.identity} at ${at}`, {
    details: { key: did, identity: status.identity, at }
  })
}

export interface MergeResult {
  state: KeyLogState
  /** Events of `received` that `known` lacked, in sequence order (none: a replay or an older copy). */
  added: SignedKeyEvent[]
}

/**
 * A received copy of an identity's log against the known one (record-v1 K13): ids are compared
 * first (hashing only), so a replay or an older copy costs no signature check; a copy that extends
 * the known log has only its new events checked; two different events at one position are a fork,
 * KEY_EVENT_CONFLICT, and the known log is kept (first seen wins: only the key holder can fork).
 */
export function mergeKeyLog (known: KeyLogState | undefined, received: KeyLog, options: KeyChainOptions): MergeResult {
  const common = Math.min(known?.ids.length ?? 0, received.events.length)
  for (let i = 0; i < common; i++) {
    const id = keyEventIdOf((received.events[i] as SignedKeyEvent).record)
    if (id !== known?.ids[i]) {
      throw new IsnadError('KEY_EVENT_CONFLICT', `two different key events ${i} for ${known?.identity ?? 'an identity'}: ${known?.ids[i] ?? ''} and ${id}`, {
        details: { identity: known?.identity, sequence: i, known: known?.ids[i], received: id }
      })
    }
  }
  const added = received.events.slice(common)
  if (known !== undefined && added.length === 0) return { state: known, added }
  return { state: applyKeyEvents(known, added, options), added }
}
