import type { AnchorRecord, AnchorState } from '../schema/index.js'
import type { AnchorOrigin } from './address-policy.js'

/** The four states a check can end in (anchors-v1 §4); `unchecked` is only ever the absence of a check. */
export type CheckedState = Exclude<AnchorState, 'unchecked'>

/** What one check of one anchor found. */
export interface CheckOutcome {
  state: CheckedState
  /** One sentence naming what was compared and with what result; never empty. */
  reason: string
  /** For url and moltbook_post: the content was reachable and differs from what was anchored. */
  drift?: boolean
}

/** The anchor fields a checker reads. */
export type AnchorClaim = Pick<AnchorRecord, 'type' | 'reference' | 'hash'>

/** What a checker is told about the anchor beyond its claim. */
export interface CheckContext {
  /** Whether one of this node's own agents made the anchor (url checks: anchors-v1 §9). Absent: `peer`. */
  origin: AnchorOrigin
}

/** Checks one anchor type; `signal` ends the check (time limit, node stopping). */
export type AnchorChecker = (anchor: AnchorClaim, signal: AbortSignal, context?: CheckContext) => Promise<CheckOutcome>

/** The current verification of one stored anchor, as `isnad anchor check` prints it. */
export interface AnchorCheck {
  /** The anchor record's id. */
  id: string
  memory: string
  type: AnchorRecord['type']
  reference: string
  state: CheckedState
  reason: string
  checked_at: string
  drift?: boolean
  /** The state before this check, when there was one. */
  previous?: CheckedState
}

/** Splits `<algorithm>:<hex>` (record-v1 R13). */
export function splitHash (hash: string): { algorithm: string, hex: string } {
  const at = hash.indexOf(':')
  return { algorithm: hash.slice(0, at), hex: hash.slice(at + 1) }
}
